export { LatchkeyClient } from './latchkey-client.js';
export type { ClientSession, HeartbeatOptions, LatchkeyClientOptions } from './latchkey-client.js';
export { resultCodes } from './answer-types.js';
export type {
  AuthAnswer,
  CheckoutAnswer,
  DeviceResetAnswer,
  DownloadResult,
  FileAnswer,
  LoginResult,
  MailAnswer,
  Meter,
  MeterAnswer,
  Result,
  ResultCode,
  SeatReturnAnswer,
  SessionAnswer,
  Subscription,
  UpdateOffer,
  VariableAnswer,
  VerifyAnswer,
} from './answer-types.js';
export {
  SignatureError,
  TransportError,
  signatureErrorReasons,
  transportErrorReasons,
} from './client-errors.js';
export type { SignatureErrorReason, TransportErrorReason } from './client-errors.js';
export { checkAnswerSignature } from './answer-signature.js';
export type { SignedAnswer } from './answer-signature.js';
export { offlineLicenseCodes, verifyOfflineLicense } from './offline-license.js';
export type {
  OfflineLicenseCheck,
  OfflineLicenseCode,
  OfflineLicenseContent,
  OfflineLicenseOptions,
} from './offline-license.js';
export { createActivationRequest } from './activation-request.js';
export type { ActivationRequestOptions } from './activation-request.js';
export { hashMachineId, readRawMachineId } from './machine-id.js';
