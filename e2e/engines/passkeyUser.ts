// A pro-1 account with a passkey made on another device: signed up over the Frontend API itself, as a
// browser with a platform authenticator would, the passkey created by the server tests' software
// authenticator (real attestation, verified by the server).
import { SoftAuthenticator } from '../../server/test/helpers/softAuthenticator.ts';
import { latestMessage } from '../kit/corbadoKit';

interface BlockBody {
  block: string;
  data: { challenge?: string };
}

/** Signs up `email` with a full name and a passkey; the account exists once this resolves. */
export async function signUpWithPasskeyElsewhere(api: string, demoOrigin: string, email: string, fullName: string): Promise<void> {
  let processToken: string | undefined;
  const step = async (path: string, body: unknown = {}): Promise<BlockBody> => {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Corbado-ProjectID': 'pro-1',
        Origin: demoOrigin,
        ...(processToken ? { 'x-corbado-process-id': processToken } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json()) as { token?: string; blockBody?: BlockBody; processResponse?: { blockBody: BlockBody } };
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    processToken ??= answer.token;
    return (answer.blockBody ?? answer.processResponse?.blockBody)!;
  };
  const device = { isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: true };
  await step('/v2/auth/process/init', { clientInformation: device, preferredBlock: 'signup-init' });
  await step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName });
  const code = (await latestMessage(email, { apiUrl: api })).code;
  const append = await step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
  if (append.block !== 'passkey-append') throw new Error(`expected the passkey offer after the code, got ${append.block}`);
  const started = await step('/v2/auth/passkey/append/start', { clientInformation: device });
  const appended = await step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator(demoOrigin).create(started.data.challenge!) });
  if (appended.block !== 'passkey-appended') throw new Error(`the passkey was not appended: ${appended.block}`);
  const completed = await step('/v2/auth/block/skip');
  if (completed.block !== 'completed') throw new Error(`the sign-up did not complete: ${completed.block}`);
}
