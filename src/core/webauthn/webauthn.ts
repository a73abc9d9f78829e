// Passkey ceremonies through @github/webauthn-json, with browser errors mapped to the catalogue.
import { create, get } from '@github/webauthn-json';
import type { ClientInformation } from '../api/types';
import { toJson } from '../toJson';
import { passkeyAlreadyExists, passkeyChallengeCancelled, passkeysNotSupported, webauthnError, CorbadoError } from '../errors';

/** NotAllowedError / AbortError: the user cancelled; SecurityError and the rest keep the browser's message. */
export function mapWebAuthnError(error: unknown): CorbadoError {
  if (error instanceof CorbadoError) return error;
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return passkeyChallengeCancelled();
  if (name === 'InvalidStateError') return passkeyAlreadyExists();
  return webauthnError(error instanceof Error ? error.message : String(error));
}

/**
 * Runs a registration with the server's creation options (a JSON string) and answers the signed result.
 * In a browser without WebAuthn (WebKitGTK, some embedded web views) it is refused as passkeysNotSupported,
 * not with the engine's TypeError about navigator.credentials.
 */
export async function createPasskey(optionsJson: string, signal?: AbortSignal): Promise<string> {
  if (!webAuthnSupported()) throw passkeysNotSupported();
  const options = JSON.parse(optionsJson) as Parameters<typeof create>[0];
  try {
    return toJson(await create(signal ? { ...options, signal } : options));
  } catch (error) {
    throw mapWebAuthnError(error);
  }
}

/** Runs an authentication; `conditional` lets the browser offer passkeys in the field's autofill. Without WebAuthn: passkeysNotSupported. */
export async function getPasskey(optionsJson: string, conditional = false, signal?: AbortSignal): Promise<string> {
  if (!webAuthnSupported()) throw passkeysNotSupported();
  const options = JSON.parse(optionsJson) as Parameters<typeof get>[0];
  try {
    const request: Parameters<typeof get>[0] = { ...options };
    if (conditional) request.mediation = 'conditional';
    if (signal) request.signal = signal;
    return toJson(await get(request));
  } catch (error) {
    throw mapWebAuthnError(error);
  }
}

/**
 * A browser capability answer, or `fallback` if it takes longer than `ms`. These answers normally take a
 * few milliseconds; the wait only matters on a device under load, where giving up early would decide
 * for the whole process that it cannot do passkeys (seen at 150 ms on a busy 2-core machine).
 */
function withTimeout<T>(promise: Promise<T>, fallback: T, ms = 1000): Promise<T> {
  return Promise.race([promise.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);
}

export function webAuthnSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

export async function platformAuthenticatorAvailable(): Promise<boolean> {
  if (!webAuthnSupported()) return false;
  return withTimeout(PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable(), false);
}

export async function conditionalMediationAvailable(): Promise<boolean> {
  if (!webAuthnSupported() || typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return false;
  return withTimeout(PublicKeyCredential.isConditionalMediationAvailable(), false);
}

interface UserAgentData {
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ platform?: string; platformVersion?: string; mobile?: boolean }>;
}

/** What the server needs to know about this browser (process init request). Values it cannot tell are left out. */
export async function clientInformation(clientEnvHandle?: string): Promise<ClientInformation> {
  const uaData = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  const [uvpa, conditional, entropy] = await Promise.all([
    platformAuthenticatorAvailable(),
    conditionalMediationAvailable(),
    uaData ? withTimeout(uaData.getHighEntropyValues(['platform', 'platformVersion']), undefined) : undefined,
  ]);
  return {
    clientEnvHandle,
    canUsePasskeys: uvpa,
    isUserVerifyingPlatformAuthenticatorAvailable: uvpa,
    isConditionalMediationAvailable: conditional,
    javaScriptHighEntropy: entropy
      ? { platform: entropy.platform ?? '', platformVersion: entropy.platformVersion ?? '', mobile: !!uaData?.mobile }
      : undefined,
  };
}
