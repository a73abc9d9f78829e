// The e-mail link (CONTRACT §7): the page URL with corbadoEmailLinkID (standard base64 of a JSON
// payload, percent-encoded) and corbadoToken (the single-use secret). The payload names the process by
// its id, never by its token (CONTRACT §7 has the token there): whoever holds the link cannot act as
// the browser that asked for it (linkApproval.ts).
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { AuthType } from './processState.ts';

export interface EmailLinkInput {
  /** the process's id (`pro-…`), which grants nothing by itself */
  processId: string;
  processExpiresAt: number;
  frontendApiUrl: string;
  identifier: string;
  retryNotBefore: number;
  authType: AuthType;
  token: string;
}

/** JSON with every non-ASCII character escaped, so that the client's atob() (Latin-1) keeps it intact. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function emailLinkUrl(project: ProjectConfig, input: EmailLinkInput): string {
  const payload = {
    process: {
      id: input.processId,
      // the name version 3 of Corbado's client reads (it sends it back as X-Corbado-Temp-Process-ID)
      tempId: input.processId,
      projectId: project.id,
      expires: input.processExpiresAt,
      frontendApiUrl: input.frontendApiUrl,
    },
    blockData: {
      identifier: input.identifier,
      retryNotBefore: input.retryNotBefore,
      verificationMethod: 'email-link',
      isPostLoginVerification: false,
    },
    authType: input.authType === 'signup' ? 1 : 0,
  };
  const url = new URL(project.emailLinkUrl);
  // URLSearchParams percent-encodes '+', '/' and '='.
  url.searchParams.set('corbadoEmailLinkID', Buffer.from(asciiJson(payload), 'utf8').toString('base64'));
  url.searchParams.set('corbadoToken', input.token);
  return url.toString();
}
