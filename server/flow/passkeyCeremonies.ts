// WebAuthn registration and authentication through @simplewebauthn/server, with the options and
// responses in the JSON-string formats of CONTRACT §6.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { ApiError } from '../ApiError.ts';
import { anyObject, obj, optional, parseWith, str } from '../schema.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import type { PendingCredential } from './processState.ts';
import { userAgentSource } from './userAgentSource.ts';

const CEREMONY_TIMEOUT_MS = 5 * 60_000;
const KNOWN_TRANSPORTS = new Set(['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable']);

export interface CeremonyOptions {
  /** `{"publicKey": …}` as a JSON string, ready for the client */
  json: string;
  challenge: string;
}

export async function registrationOptions(
  project: ProjectConfig,
  user: { handle: string; name: string; displayName: string },
  exclude: CredentialRecord[],
): Promise<CeremonyOptions> {
  const options = await generateRegistrationOptions({
    rpName: project.rpName,
    rpID: project.rpId,
    userID: new Uint8Array(Buffer.from(user.handle, 'base64url')),
    userName: user.name,
    userDisplayName: user.displayName,
    attestationType: 'none',
    timeout: CEREMONY_TIMEOUT_MS,
    excludeCredentials: exclude.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  return { json: JSON.stringify({ publicKey: options }), challenge: options.challenge };
}

export async function authenticationOptions(project: ProjectConfig, allow: CredentialRecord[]): Promise<CeremonyOptions> {
  const options = await generateAuthenticationOptions({
    rpID: project.rpId,
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
    allowCredentials: allow.map((c) => ({ id: c.credentialId, transports: c.transports })),
  });
  return { json: JSON.stringify({ publicKey: options }), challenge: options.challenge };
}

const registrationShape = obj({
  id: str({ min: 1, max: 2048 }),
  rawId: str({ min: 1, max: 2048 }),
  type: str(),
  response: obj({
    clientDataJSON: str({ min: 1 }),
    attestationObject: str({ min: 1 }),
    transports: optional(anyArrayOfStrings()),
  }),
  clientExtensionResults: optional(anyObject()),
});

const authenticationShape = obj({
  id: str({ min: 1, max: 2048 }),
  rawId: str({ min: 1, max: 2048 }),
  type: str(),
  /** 'platform' or 'cross-platform' (a phone over hybrid, a security key), as the browser reports it */
  authenticatorAttachment: optional(str({ max: 32 })),
  response: obj({
    clientDataJSON: str({ min: 1 }),
    authenticatorData: str({ min: 1 }),
    signature: str({ min: 1 }),
    userHandle: optional(str()),
  }),
  clientExtensionResults: optional(anyObject()),
});

function anyArrayOfStrings() {
  const check = (value: unknown, path: string, issues: { field: string; message: string }[]): string[] => {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      issues.push({ field: path, message: 'must be an array of strings' });
      return [];
    }
    return value as string[];
  };
  return Object.assign(check, { optional: false as const });
}

function parseJsonString(value: string, field: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw ApiError.invalidRequest(`${field} is not valid JSON`, [{ field, message: 'must be a JSON string' }]);
  }
}

/** Parses the browser's registration credential (JSON string); 400 when it is not one. */
export function parseRegistrationResponse(json: string, field: string): RegistrationResponseJSON {
  const parsed = parseWith(registrationShape, parseJsonString(json, field));
  return { ...parsed, type: 'public-key', clientExtensionResults: parsed.clientExtensionResults ?? {} } as RegistrationResponseJSON;
}

/** Parses the browser's assertion (JSON string); 400 when it is not one. */
export function parseAuthenticationResponse(json: string, field: string): AuthenticationResponseJSON {
  const parsed = parseWith(authenticationShape, parseJsonString(json, field));
  return { ...parsed, type: 'public-key', clientExtensionResults: parsed.clientExtensionResults ?? {} } as AuthenticationResponseJSON;
}

/** The verified new credential, or undefined when verification fails for any reason. */
export async function verifyRegistration(
  project: ProjectConfig,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  userAgent: string | undefined,
  nowMs: number,
): Promise<PendingCredential | undefined> {
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: project.allowedOrigins,
      expectedRPID: project.rpId,
      requireUserVerification: true,
    });
    if (!result.verified) return undefined;
    const info = result.registrationInfo;
    const source = userAgentSource(userAgent);
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      aaguid: info.aaguid,
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backupState: info.credentialBackedUp,
      transports: (response.response.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t)).map((t) => (t === 'cable' ? 'hybrid' : t)),
      signCount: info.credential.counter,
      attestationType: info.fmt,
      sourceBrowser: source.browser,
      sourceOS: source.os,
      createdAt: nowMs,
    };
  } catch {
    return undefined;
  }
}

/** The new counter and backup state, or undefined when verification fails for any reason. */
export async function verifyAuthentication(
  project: ProjectConfig,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: CredentialRecord,
): Promise<{ signCount: number; backupState: boolean } | undefined> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: project.allowedOrigins,
      expectedRPID: project.rpId,
      requireUserVerification: true,
      credential: {
        id: credential.credentialId,
        publicKey: new Uint8Array(credential.publicKey),
        counter: credential.signCount,
        transports: credential.transports,
      },
    });
    if (!result.verified) return undefined;
    return { signCount: result.authenticationInfo.newCounter, backupState: result.authenticationInfo.credentialBackedUp };
  } catch {
    return undefined;
  }
}
