import { useEffect } from 'react';

/**
 * Reads the code of an origin-bound SMS (last line `@host #123456`) through the WebOTP API where the
 * browser has it: the phone asks the user, then `onCode` gets the code. Stopped when the screen goes;
 * silent where the API is missing, refused or aborted (the user types the code as before).
 */
export function useWebOtp(active: boolean, onCode: (code: string) => void): void {
  useEffect(() => {
    if (!active || !('OTPCredential' in window)) return;
    const abort = new AbortController();
    navigator.credentials
      .get({ otp: { transport: ['sms'] }, signal: abort.signal } as CredentialRequestOptions)
      .then((credential) => {
        const code = (credential as { code?: unknown } | null)?.code;
        if (!abort.signal.aborted && typeof code === 'string') onCode(code);
      })
      .catch(() => undefined);
    return () => abort.abort();
  }, [active, onCode]);
}
