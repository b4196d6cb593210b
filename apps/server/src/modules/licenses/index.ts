/**
 * What the licenses module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { banLicense, unbanLicense } from './ban-license.ts';
export { countLicenses, licenseCountsOf } from './count-licenses.ts';
export { deleteLicense } from './delete-license.ts';
export { exportLicensesCsv } from './export-licenses-csv.ts';
export { generateLicenses } from './generate-licenses.ts';
export { getLicense } from './get-license.ts';
export { inferredPrefixLengths } from './license-key-entropy.ts';
export { licenseKeyPrefix } from './license-key-prefix.ts';
export {
  licenseKeyDigest,
  licenseKeyDisplay,
  licenseKeySuffix,
  sealLicenseKey,
  unsealLicenseKey,
} from './license-key-secrets.ts';
export { listLicenses } from './list-licenses.ts';
export {
  type ClientRedemption,
  createClientRedemption,
  type LicenseRefusalCode,
  redeemLicenseKey,
} from './redeem-license-key.ts';
export { toLicenseResponse } from './to-license-response.ts';
export { licenseRoutes } from './routes.ts';
export { banLicenseKeys } from './ban-license.ts';
export { mintLicenseKeys, type MintedLicenseKey } from './mint-license-keys.ts';
