// E-mail link entry: two query parameters carry the process and the verification token (CONTRACT.md section 7).
import type { AuthType, VerificationMethod } from '../api/types';

export const EMAIL_LINK_PARAM = 'corbadoEmailLinkID';
export const EMAIL_TOKEN_PARAM = 'corbadoToken';

export interface EmailLinkEntry {
  process: { id: string; expires?: number; frontendApiUrl?: string };
  blockData: { identifier: string; retryNotBefore?: number; verificationMethod: VerificationMethod; isPostLoginVerification?: boolean };
  authType: AuthType;
  token: string;
}

/**
 * Reads the e-mail link parameters from a query string. Answers undefined when either parameter is
 * absent (nothing happens then); a present but empty token is kept as '' so the caller can raise the
 * missing-token error.
 */
export function readEmailLink(search: string): EmailLinkEntry | undefined {
  const params = new URLSearchParams(search);
  const encoded = params.get(EMAIL_LINK_PARAM);
  const token = params.get(EMAIL_TOKEN_PARAM);
  if (encoded === null || token === null) return undefined;
  try {
    const payload = JSON.parse(atob(encoded)) as {
      process?: { id?: string; expires?: number; frontendApiUrl?: string };
      blockData?: EmailLinkEntry['blockData'];
      authType?: number;
    };
    if (!payload.process?.id || !payload.blockData) return undefined;
    return {
      process: { id: payload.process.id, expires: payload.process.expires, frontendApiUrl: payload.process.frontendApiUrl },
      blockData: payload.blockData,
      authType: payload.authType === 0 ? 'login' : 'signup',
      token: token.replace(/#email-link-confirm$/, ''),
    };
  } catch {
    return undefined;
  }
}

/** The page address without the two parameters, so a reload does not verify the link again. */
export function withoutEmailLinkParams(href: string): string {
  const url = new URL(href);
  url.searchParams.delete(EMAIL_LINK_PARAM);
  url.searchParams.delete(EMAIL_TOKEN_PARAM);
  return url.pathname + url.search + url.hash;
}
