import type { Application, UpdateApplicationRequest } from '@latchkey/contracts';

/** The End-user portal group of the Settings dialog as typed. */
export interface PortalSettingsFields {
  portalEnabled: boolean;
  /** Empty: the portal shows the application's name. */
  portalName: string;
}

export function toPortalSettingsFields(application: Application): PortalSettingsFields {
  return {
    portalEnabled: application.portalEnabled,
    portalName: application.portalName ?? '',
  };
}

export type PortalSettingsRequest = Required<
  Pick<UpdateApplicationRequest, 'portalEnabled' | 'portalName'>
>;

export function toPortalSettingsRequest(fields: PortalSettingsFields): PortalSettingsRequest {
  const portalName = fields.portalName.trim();
  return { portalEnabled: fields.portalEnabled, portalName: portalName === '' ? null : portalName };
}

/** The portal's address: the console's own origin serves it. */
export function getPortalUrl(portalPublicId: string, origin = window.location.origin): string {
  return `${origin}/portal/${encodeURIComponent(portalPublicId)}`;
}
