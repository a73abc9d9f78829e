// Passkey ceremonies through @github/webauthn-json, with browser errors mapped to the catalogue.
import { create, get } from '@github/webauthn-json';
import type { ClientInformation } from '../api/types';
import { readItem, storageKeys, writeItem } from '../storage';
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
function withTimeout<T>(promise: Promise<T>, fallback: T, late?: () => void, ms = 1000): Promise<T> {
  return new Promise<T>((resolve) => {
    const timer = setTimeout(() => {
      late?.();
      resolve(fallback);
    }, ms);
    promise.then(resolve, () => resolve(fallback)).finally(() => clearTimeout(timer));
  });
}

export function webAuthnSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** `late` is told when the browser's answer did not come in time (false is answered then). */
export async function platformAuthenticatorAvailable(late?: () => void, ms?: number): Promise<boolean> {
  if (!webAuthnSupported()) return false;
  return withTimeout(PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable(), false, late, ms);
}

export async function conditionalMediationAvailable(late?: () => void, ms?: number): Promise<boolean> {
  if (!webAuthnSupported() || typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return false;
  return withTimeout(PublicKeyCredential.isConditionalMediationAvailable(), false, late, ms);
}

interface UserAgentData {
  mobile: boolean;
  platform: string;
  getHighEntropyValues(hints: string[]): Promise<{ platform?: string; platformVersion?: string; mobile?: boolean }>;
}

/** The browser's answers process/init carries. */
interface Capabilities {
  uvpa: boolean;
  conditional: boolean;
  /** whether Bluetooth is there for a phone as passkey (cross-device); undefined where the browser cannot tell */
  bluetooth?: boolean;
  entropy?: ClientInformation['javaScriptHighEntropy'];
}

type BrowserNavigator = Navigator & { userAgentData?: UserAgentData; bluetooth?: { getAvailability(): Promise<boolean> } };
const browserNavigator = () => globalThis.navigator as BrowserNavigator | undefined;
const userAgentData = () => browserNavigator()?.userAgentData;

/**
 * Web Bluetooth's answer (Chromium); Firefox and Safari have no navigator.bluetooth, and there, as in
 * web-js 3.5, the value is left out rather than guessed.
 */
function bluetoothAvailable(ms?: number): Promise<boolean | undefined> {
  const bluetooth = browserNavigator()?.bluetooth;
  if (typeof bluetooth?.getAvailability !== 'function') return Promise.resolve(undefined);
  try {
    return withTimeout(bluetooth.getAvailability().then((available) => available === true), undefined, undefined, ms);
  } catch {
    return Promise.resolve(undefined);
  }
}

/**
 * Asks the browser (each answer can take a while: it comes from another process) and remembers the
 * answers for the next visit. `late`: an answer on passkeys did not come in time, so false stands in for
 * it; that is no answer of the device's, and nothing is remembered (the next visit asks again).
 */
async function measure(ms?: number): Promise<{ measured: Capabilities; late: boolean }> {
  const uaData = userAgentData();
  let late = false;
  const tooLate = () => (late = true);
  const [uvpa, conditional, bluetooth, entropy] = await Promise.all([
    platformAuthenticatorAvailable(tooLate, ms),
    conditionalMediationAvailable(tooLate, ms),
    bluetoothAvailable(ms),
    uaData ? withTimeout(uaData.getHighEntropyValues(['platform', 'platformVersion']), undefined, undefined, ms) : undefined,
  ]);
  const measured: Capabilities = {
    uvpa,
    conditional,
    bluetooth,
    entropy: entropy && { platform: entropy.platform ?? '', platformVersion: entropy.platformVersion ?? '', mobile: !!uaData?.mobile },
  };
  if (!late) writeItem(storageKeys.clientCapabilities, toJson(measured));
  return { measured, late };
}

/**
 * What can be told without waiting: the answers measured on an earlier visit, else a guess from what the
 * browser shows at once (a platform authenticator on the systems that ship one; conditional mediation
 * where the browser has the call). Bluetooth and the high-entropy values are only sent once measured.
 */
function known(): Capabilities {
  try {
    const stored = JSON.parse(readItem(storageKeys.clientCapabilities) ?? '') as Capabilities;
    if (typeof stored.uvpa === 'boolean' && typeof stored.conditional === 'boolean') return stored;
  } catch {
    // nothing measured yet
  }
  const supported = webAuthnSupported();
  const system = userAgentData()?.platform || globalThis.navigator?.userAgent || '';
  return {
    uvpa: supported && /mac|win|android|iphone|ipad|chrome ?os|cros/i.test(system),
    conditional: supported && typeof PublicKeyCredential.isConditionalMediationAvailable === 'function',
  };
}

function toClientInformation(capabilities: Capabilities, clientEnvHandle?: string): ClientInformation {
  return {
    bluetoothAvailable: capabilities.bluetooth,
    clientEnvHandle,
    canUsePasskeys: capabilities.uvpa,
    isUserVerifyingPlatformAuthenticatorAvailable: capabilities.uvpa,
    isConditionalMediationAvailable: capabilities.conditional,
    javaScriptHighEntropy: capabilities.entropy,
  };
}

/** What the server needs to know about this browser, as the browser answers it. Values it cannot tell are left out. */
export async function clientInformation(clientEnvHandle?: string): Promise<ClientInformation> {
  return toClientInformation((await measure()).measured, clientEnvHandle);
}

/**
 * How long the answers behind clientInformationNow may take. No request waits for them, only a
 * visitor's action taken before they came (runAction), so the wait is longer than the one a request
 * makes: on a busy device an answer past a second would leave the guess standing for the whole process.
 */
const BACKGROUND_ANSWER_MS = 3000;

/**
 * The same without waiting (process/init leaves at once): what is known now, and whether the
 * browser's answers, once in, agree with what was sent on the points the server decides on.
 */
export function clientInformationNow(clientEnvHandle?: string): [ClientInformation, Promise<boolean>] {
  const now = known();
  // an answer that came too late contradicts nothing: it is not the device's; nor does a browser whose
  // capability calls throw (nobody may be listening yet: process/init is still on its way)
  const agreed = measure(BACKGROUND_ANSWER_MS).then(
    ({ measured, late }) => late || (measured.uvpa === now.uvpa && measured.conditional === now.conditional),
    () => true,
  );
  return [toClientInformation(now, clientEnvHandle), agreed];
}
