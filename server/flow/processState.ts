// The server-side state of one auth process, kept as JSON in the processes table.
import type { AuthType, BlockType, PasskeyOperation } from '../../src/core/api/types.ts';
import type { IdentifierType, SocialProvider } from '../config/projectConfig.ts';
import type { LoginMethod } from '../events/eventTypes.ts';
import type { StoredSignupAnswer } from '../config/signupFields.ts';
import type { SignInAttempt } from '../social/SocialProviders.ts';

export type { AuthType };
export type VerifiableType = 'email' | 'phone';

/** The blocks this server leads a process through (a subset of the wire's BlockType). */
export type BlockName = Extract<
  BlockType,
  | 'signup-init'
  | 'login-init'
  | 'passkey-append'
  | 'passkey-appended'
  | 'passkey-verify'
  | 'email-verify'
  | 'post-signup-email-verify'
  | 'phone-verify'
  | 'username-collect'
  | 'phone-collect'
  | 'completed'
>;

export interface EnteredIdentifier {
  value: string;
  verified: boolean;
}

/** A credential registered during sign-up; written to the credentials table when the user is created. */
export interface PendingCredential {
  credentialId: string;
  publicKey: string; // base64url COSE key
  aaguid: string;
  backupEligible: boolean;
  backupState: boolean;
  transports: string[];
  signCount: number;
  attestationType: string;
  sourceBrowser: string;
  sourceOS: string;
  createdAt: number;
}

export type { PasskeyOperation };

/** The provider account a social sign-in proved; linked to the user when the process completes. */
export interface SocialIdentity {
  provider: SocialProvider;
  subject: string;
  email: string;
  /**
   * The provider vouches for the address by its own rule (SocialProviders.ts). Without it the address
   * is the account's pending one, and a code to it comes before a link to an existing account.
   * (Absent in processes stored before it existed: those were all vouched for.)
   */
  emailVerified?: boolean;
  fullName: string;
  avatarUrl: string;
}

/** One social sign-in round trip: started by social/verify/start, ended by the provider's callback. */
export interface SocialRoundTrip {
  provider: SocialProvider;
  /** the page the browser returns to after the callback */
  redirectUrl: string;
  authType: AuthType;
  /** sha256 of the OAuth state (the state itself is only in the provider URL) */
  stateHash: string;
  /** the API base URL at start: the callback's redirect_uri and the provider endpoints derive from it */
  apiBase: string;
  /** the PKCE verifier and the nonce of this attempt (absent in processes stored before PKCE) */
  attempt?: SignInAttempt;
  status: 'started' | 'finished' | 'failed';
  /** status finished: what the provider said */
  identity?: SocialIdentity;
  /** status failed: the in-band error code shown once on the init block */
  errorCode?: string;
  startedAt: number;
  /**
   * Started from a page on another site than the API (flow/social.ts, "across sites"): the provider URL
   * the first-party start (GO_PATH) sends the browser on to, the hash of that start's one-time secret
   * (cleared once used), and after the callback the hash of the result secret the page must show to finish.
   */
  crossSite?: { oauthUrl: string; goHash: string | null; resultHash?: string };
}

export interface ProcessState {
  authType: AuthType;
  block: BlockName;
  /** what the client told process/init (optOutAfterHybrid: absent in processes stored before it existed) */
  client: { platformAuthenticator: boolean; conditionalMediation: boolean; optOutAfterHybrid?: boolean };
  fullName: string;
  /**
   * sign-up: the answers to the project's sign-up fields as last entered (signup-init, or a social
   * start from sign-up), stored with the user when it is created (absent in processes stored before them)
   */
  signupFields?: StoredSignupAnswer[];
  /** sign-up: what the user entered; log-in: the user's identifiers */
  identifiers: Partial<Record<IdentifierType, EnteredIdentifier>>;
  /** last login-init entry, echoed back with a field error */
  loginValue: string;
  loginIsPhone: boolean;
  /** log-in: the user found by login/init; sign-up: the user created at completion */
  userId: string | null;
  /** WebAuthn user.id for sign-up registrations (base64url) */
  userHandle: string | null;
  passkey: 'undecided' | 'declined' | 'appended';
  /** the passkey-appended block has been confirmed with block/skip */
  passkeyAcknowledged: boolean;
  pendingCredential: PendingCredential | null;
  appendChallenge: string | null;
  loginChallenge: string | null;
  conditionalChallenge: string | null;
  /** when the last code or link was sent, per identifier type (ms) */
  lastSentAt: Partial<Record<VerifiableType, number>>;
  /** the identifier the user signed up or logged in with (JWT `orig`) */
  orig: { type: IdentifierType; value: string } | null;
  passkeyOperation: PasskeyOperation | null;
  /** set once the completed block has been delivered; the process is then over */
  deliveredAt: number | null;
  /**
   * the long session the completed block handed out: once it has ended (logged out, revoked, expired),
   * the process is not available any more (absent in processes completed before it was kept)
   */
  sessionId?: string;
  /** social sign-in in progress (absent in processes stored before social sign-in existed) */
  social?: SocialRoundTrip | null;
  /** a social sign-in's account, linked to the user at completion; it also marks the process as social */
  socialAccount?: SocialIdentity | null;
  /** post-signup-email-verify was skipped: the account keeps its address pending */
  postSignupDeferred?: boolean;
  /**
   * Credential ids of the passkeys this process logged in with (passkey-verify, or conditional UI even
   * when refused as unconfirmed) or appended: an address proven in the same process keeps them
   * (absent in processes stored before it existed)
   */
  passkeysOfProcess?: string[];
  /** passkey-append is the offer after a log-in with a passkey from another device */
  appendAfterHybrid?: boolean;
  /** the last proof this process took (a code, a link, a passkey, a provider): the log-in event's method */
  loginProof?: { method: LoginMethod; passkeyId?: string } | null;
  /** a passkey log-in was tried in this process (passkey-verify, or the autofill): a log-in by code afterwards is a fallback */
  passkeyTried?: 'verify' | 'autofill';
  /**
   * sha256 of the browser cookie (BROWSER_COOKIE) of the browser that started the process: an e-mail
   * link opened in that browser continues by itself (absent: no cookie came, or stored before it existed)
   */
  browser?: string;
  /** the e-mail link sent last: the browser that asked for it and the match code both screens show */
  linkAsker?: { browser: string; os: string; matchCode: string };
  /** the person at the e-mail link declined it (or continued on their own device): nothing goes on here */
  linkDeclinedAt?: number;
}

export function initialState(
  authType: AuthType,
  client: ProcessState['client'],
): ProcessState {
  return {
    authType,
    block: authType === 'signup' ? 'signup-init' : 'login-init',
    client,
    fullName: '',
    identifiers: {},
    loginValue: '',
    loginIsPhone: false,
    userId: null,
    userHandle: null,
    passkey: 'undecided',
    passkeyAcknowledged: false,
    pendingCredential: null,
    appendChallenge: null,
    loginChallenge: null,
    conditionalChallenge: null,
    lastSentAt: {},
    orig: null,
    passkeyOperation: null,
    deliveredAt: null,
    social: null,
    socialAccount: null,
  };
}

/** signup-init and login-init: where a process starts, and between which it may switch. */
export function isInitBlock(block: BlockName): boolean {
  return block === 'signup-init' || block === 'login-init';
}

export function verifyTypeOf(block: BlockName): VerifiableType | undefined {
  if (block === 'email-verify' || block === 'post-signup-email-verify') return 'email';
  if (block === 'phone-verify') return 'phone';
  return undefined;
}
