// Wire types of the Frontend API v2 (reference/frontend-api-v2.yaml): the one definition, used by the
// widget that reads and sends them and by the local Frontend API (server) that produces them.
// Type-only: importing this file adds nothing to the bundle. Block data are type aliases (not
// interfaces) so that each is also a plain JSON record.

export type IdentifierType = 'email' | 'phone' | 'username';
export type VerificationMethod = 'email-link' | 'email-otp' | 'phone-otp';
export type AuthType = 'signup' | 'login';
export type SocialProvider = 'google' | 'microsoft' | 'github';
export type SocialStatus = 'initial' | 'started' | 'finished';

export type BlockType =
  | 'signup-init'
  | 'login-init'
  | 'passkey-verify'
  | 'passkey-append'
  | 'passkey-appended'
  | 'email-verify'
  | 'post-signup-email-verify'
  | 'phone-verify'
  | 'phone-collect'
  | 'username-collect'
  | 'social-verify'
  | 'continue-on-other-env'
  | 'completed'
  | 'conditional-ui-completed';

export const BLOCK_TYPES: readonly BlockType[] = [
  'signup-init',
  'login-init',
  'passkey-verify',
  'passkey-append',
  'passkey-appended',
  'email-verify',
  'post-signup-email-verify',
  'phone-verify',
  'phone-collect',
  'username-collect',
  'social-verify',
  'continue-on-other-env',
  'completed',
  'conditional-ui-completed',
];

export interface RequestError {
  code: string;
  message: string;
}

export type SocialData = {
  providers: SocialProvider[];
  status: SocialStatus;
  oauthUrl?: string;
  error?: RequestError;
};

export type IdentifierWithError = {
  type: IdentifierType;
  identifier: string;
  error?: RequestError;
};

/**
 * A field the project adds to sign-up (its configuration's `signupFields`): a text with a pattern and a
 * length, or a checkbox agreeing to a text (terms, privacy) of a given version, its link in the label's
 * [brackets]. Labels per language (en and de always, other languages where the project gives them).
 */
export type SignupField = {
  id: string;
  type: 'text' | 'checkbox';
  label: Record<string, string>;
  required: boolean;
  /** text: the whole value must match (a JavaScript pattern with the `u` flag) */
  pattern?: string;
  /** text: length in characters */
  minLength?: number;
  maxLength?: number;
  /** checkbox: the text agreed to */
  url?: string;
  /** checkbox: the version of that text; an answer must name the current one */
  version?: string;
};

/** signup-init: a project field with what was entered and the server's error for it. */
export type SignupFieldWithAnswer = SignupField & { value?: string; accepted?: boolean; error?: RequestError };

/** The answer to one sign-up field in signup/init (and social/verify/start from sign-up). */
export type SignupFieldAnswer = { id: string; value?: string; accepted?: boolean; version?: string };

export type SignupInitData = {
  blockType?: 'signup-init';
  identifiers: IdentifierWithError[];
  fullName?: { fullName: string; error?: RequestError };
  /** the project's own fields, absent when it has none */
  signupFields?: SignupFieldWithAnswer[];
  socialData?: SocialData;
  error?: RequestError;
};

export type LoginInitData = {
  blockType?: 'login-init';
  identifierValue: string;
  isPhone: boolean;
  isPhoneAvailable: boolean;
  isEmailAvailable: boolean;
  isUsernameAvailable: boolean;
  socialData?: SocialData;
  conditionalUIChallenge?: string;
  fieldError?: RequestError;
  error?: RequestError;
};

export type VerifyIdentifierData = {
  blockType?: 'email-verify' | 'phone-verify' | 'post-signup-email-verify';
  verificationMethod: VerificationMethod;
  identifier: string;
  retryNotBefore?: number;
  error?: RequestError;
  isPostLoginVerification?: boolean;
  alternativeVerificationMethods?: { verificationType: VerificationMethod; identifier: string }[];
  /** e-mail link: the code the link shows where it is opened in another browser (absent when the project refuses that) */
  matchCode?: string;
};

export type PasskeyAppendData = {
  blockType?: 'passkey-append';
  challenge: string;
  identifierValue: string;
  identifierType: IdentifierType;
  autoSubmit?: boolean;
  passkeyIconSet?: 'default' | 'apple' | 'android' | 'windows';
  variant?: 'default' | 'after-hybrid' | 'after-error';
};

export type PasskeyVerifyData = {
  blockType?: 'passkey-verify';
  challenge: string;
  identifierValue: string;
  loginHint?: 'cda';
};

export type CollectData = {
  blockType?: 'username-collect' | 'phone-collect';
  /** the identifier the block asks for: username-collect -> username, phone-collect -> phone */
  value: string;
  error?: RequestError;
};

export type PasskeyOperation = {
  operationType: 'append' | 'verify';
  identifierValue: string;
  identifierType: IdentifierType;
  ceremonyType: 'local' | 'cda' | 'security-key';
};

export type CompletedData = {
  blockType?: 'completed';
  shortSession: string;
  longSession?: string;
  /** the same tokens under the names version 3 of Corbado's client reads */
  sessionToken?: string;
  refreshToken?: string;
  passkeyOperation?: PasskeyOperation;
};

export type PasskeyAppendedData = { blockType?: 'passkey-appended' };

export type ContinueReason = 'email-link-verified' | 'process-already-completed';

export interface BlockBody {
  block: BlockType;
  authType: AuthType;
  data: Record<string, unknown>;
  alternatives?: BlockBody[];
  error?: RequestError;
  continueOnOtherDevice?: { reason: ContinueReason };
}

export interface ProcessCommon {
  appName: string;
  frontendApiUrl: string;
  hideBadge: boolean;
  /** 'dev' or 'prod' (version 3 of Corbado's client) */
  environment?: string;
}

export interface ProcessResponse {
  blockBody: BlockBody;
  common: ProcessCommon;
  newProcess?: { token: string; expiresAt: number };
  /** POST /v2/auth/email-link/open in another browser than the one that asked: what the link would approve */
  linkRequest?: EmailLinkRequest;
}

/** What an e-mail link asks for, shown where it is opened in another browser. */
export interface EmailLinkRequest {
  authType: AuthType;
  /** the browser and operating system that asked for the link, from its User-Agent */
  browser: string;
  os: string;
  /** seconds since the link was sent */
  age: number;
  /** the code the waiting tab shows; absent when the project refuses approvals from another browser */
  matchCode?: string;
}

export interface ProcessInitResponse {
  token: string;
  expiresAt: number;
  processResponse: ProcessResponse;
  newClientEnvHandle?: string;
}

export interface ClientInformation {
  bluetoothAvailable?: boolean;
  clientEnvHandle?: string;
  canUsePasskeys?: boolean;
  isUserVerifyingPlatformAuthenticatorAvailable?: boolean;
  isConditionalMediationAvailable?: boolean;
  javaScriptHighEntropy?: { platform: string; platformVersion: string; mobile: boolean };
}

export interface ProcessInitRequest {
  clientInformation: ClientInformation;
  passkeyAppendShown?: number;
  /** the visitor declined the passkey offered after a cross-device log-in for good */
  optOutOfPasskeyAppendAfterHybrid?: boolean;
  preferredBlock?: string;
}

export interface ShortSessionCookieConfig {
  domain: string;
  secure: boolean;
  sameSite: 'lax' | 'strict' | 'none';
  path: string;
  lifetimeSeconds: number;
}

export interface SessionConfig {
  useSessionManagement: boolean;
  shortSessionCookieConfig?: ShortSessionCookieConfig;
  /** the same cookie settings under the name version 3 of Corbado's client reads */
  sessionTokenCookieConfig?: ShortSessionCookieConfig;
  frontendApiUrl?: string;
  /**
   * Present when the page is on another site than the Frontend API (this widget's server): where the
   * browser refuses the API's long-session cookie, `storage` means the long session is handed to the
   * widget to keep in the page's storage, `short-only` that only the short session lasts.
   */
  crossSite?: { sessions: 'storage' | 'short-only' };
}

/** GET /v2/user-details-config: what the user details view may offer. */
export interface UserDetailsConfig {
  fullNameRequired: boolean;
  /** the enabled identifier types; whether one logs in, and how many a user may hold */
  identifiers: { type: IdentifierType; loginIdentifier?: boolean; maxPerUser?: number }[];
}

/**
 * POST /v2/component-config (SPEC §7): what a component can show of the project before any process.
 * Neither the API reference nor web-js 3.5 defines or calls it; the widget does not call it either
 * (its views learn all this from the process), it is there for host code that draws its own UI.
 */
export interface ComponentConfig {
  appName: string;
  environment: 'dev' | 'prod';
  language: string;
  hideBadge: boolean;
  publicSignup: boolean;
  fullNameRequired: boolean;
  passkeys: boolean;
  identifiers: { type: IdentifierType; loginIdentifier: boolean; verification: VerificationMethod | 'none' }[];
  socialProviders: SocialProvider[];
}

/** GET /v2/process-config: version 3 of Corbado's client asks it before its first process. */
export interface ProcessConfig {
  useServerSideProcessId: boolean;
  frontendApiUrl: string;
}

export interface MeIdentifier {
  id: string;
  value: string;
  type: IdentifierType;
  /** 'verified' or 'pending' */
  status: string;
  /** the one of its type that sessions and codes use (several e-mails or phones per user) */
  primary?: boolean;
}

export interface MeSocialAccount {
  /** this server's id of the link (`soc-…`), for unlinking it */
  id?: string;
  providerType: SocialProvider;
  identifierValue: string;
  avatarUrl: string;
  fullName: string;
}

export interface AaguidDetails {
  name: string;
  iconLight: string;
  iconDark: string;
}

/**
 * A sign-up field's answer as stored with the user: a text's value, or whether a checkbox was ticked
 * and the version of the text it agreed to; when (yyyy-MM-ddTHH:mm:ss, UTC). `label` and `url` are the
 * project's current ones (absent for a field the project has removed since); `shown` is the text the
 * answer was given on, kept with it (absent for answers stored before it was kept), and `source` who
 * gave it: the person in the widget (`signup`) or the host's backend for them (`backend-api`, `import`).
 */
export interface MeSignupField {
  id: string;
  type: 'text' | 'checkbox';
  label?: Record<string, string>;
  url?: string;
  value?: string;
  accepted?: boolean;
  version?: string;
  answeredAt: string;
  shown?: { language: string; label: string; url?: string };
  source?: 'signup' | 'backend-api' | 'import';
}

export interface MeResponse {
  id: string;
  fullName: string;
  identifiers: MeIdentifier[];
  socialAccounts: MeSocialAccount[];
  /** the answers to the project's sign-up fields (absent where there are none) */
  signupFields?: MeSignupField[];
}

export interface Passkey {
  id: string;
  credentialID: string;
  attestationType: string;
  transport: string[];
  backupEligible: boolean;
  backupState: boolean;
  authenticatorAAGUID: string;
  aaguidDetails?: AaguidDetails;
  sourceOS: string;
  sourceBrowser: string;
  lastUsed: string;
  created: string;
  status: 'pending' | 'active';
  /** milliseconds since the epoch (version 3 of Corbado's client) */
  createdMs?: number;
  lastUsedMs?: number;
  /** 'synced' (backed up), 'hybrid' (used from another device) */
  tags?: string[];
}

export interface PasskeyListResponse {
  passkeys: Passkey[];
  paging: { page: number; totalPages: number; totalItems: number };
}

export interface PasskeyAppendStartResponse {
  attestationOptions: string;
  appendNotAllowedReason?: string;
  newClientEnvHandle?: string;
}

/** POST /v2/me/refresh; sessionToken is shortSession under its version 3 name. */
export interface RefreshResponse {
  shortSession: string;
  sessionToken: string;
  /** the long session's next value (dev projects, when the client asked to rotate with `{rotate: true}`): keep it */
  longSession?: string;
}

/** One of the user's live long sessions (a device that is logged in), GET /v2/me/sessions. */
export interface UserSession {
  id: string;
  /** e.g. "Chrome 131" and "macOS", from the User-Agent it logged in with */
  browser: string;
  os: string;
  /** yyyy-MM-dd'T'HH:mm:ss in UTC, as the passkeys' dates */
  created: string;
  lastUsed: string;
  createdMs: number;
  lastUsedMs: number;
  /** the session the request came with: this device */
  current: boolean;
}

export interface UserSessionsResponse {
  sessions: UserSession[];
}

/** The body of a 2xx answer that says nothing else (PATCH and DELETE /v2/me, /v2/me/identifier*). */
export interface GenericResponse {
  httpStatusCode: number;
  message: string;
  requestData: { requestID: string; link: string };
  runtime: number;
}

// --- the account calls (PATCH and DELETE /v2/me, /v2/me/identifier*) ------------------------------

export interface MeUpdateRequest {
  fullName: string;
}

export interface MeIdentifierCreateRequest {
  identifierType: IdentifierType;
  value: string;
}

export interface MeIdentifierDeleteRequest {
  identifierID: string;
}

/**
 * A changed value replaces a username (its identifierID changes); `primary: true` with the current
 * value makes a verified e-mail address or phone number the primary one of its type.
 */
export interface MeIdentifierUpdateRequest {
  identifierID: string;
  identifierType: IdentifierType;
  value: string;
  primary?: boolean;
}

export interface MeIdentifierVerifyStartRequest {
  identifierID: string;
  clientInformation: ClientInformation;
}

export interface MeIdentifierVerifyFinishRequest {
  identifierID: string;
  code: string;
}

// --- a fresh proof for what needs a recent log-in (/v2/me/reauth*) --------------------------------

/** GET /v2/me/reauth: the proofs the user can give (a passkey, a code to the address named). */
export interface MeReauthOptions {
  passkey: boolean;
  code?: { identifierID: string; identifierType: 'email' | 'phone'; value: string };
}

export interface MeReauthPasskeyStartResponse {
  assertionOptions: string;
}

export interface MeReauthPasskeyFinishRequest {
  assertionResponse: string;
}

export interface MeReauthCodeStartRequest {
  identifierID: string;
}

export interface MeReauthCodeFinishRequest {
  identifierID: string;
  code: string;
}
