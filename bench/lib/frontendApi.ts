// Small Frontend API client for the benchmark's own set-up calls (never measured by the browser runs).

export const PROJECT = 'pro-1';

export interface BlockAnswer {
  blockBody: { block: string; data?: Record<string, unknown> };
}

export interface CompletedSessions {
  shortSession: string;
  longSession?: string;
}

export interface Outbound {
  url: string;
  init: RequestInit;
}

function headers(processId?: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Corbado-ProjectID': PROJECT,
    ...(processId ? { 'X-Corbado-Process-ID': processId } : {}),
  };
}

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export function processInitRequest(apiUrl: string): Outbound {
  return {
    url: `${apiUrl}/v2/auth/process/init`,
    init: { method: 'POST', headers: headers(), body: JSON.stringify({ clientInformation: {} }) },
  };
}

export function verifyFinishRequest(apiUrl: string, processId: string, code: string): Outbound {
  return {
    url: `${apiUrl}/v2/auth/identifier/verify/finish`,
    init: {
      method: 'POST',
      headers: headers(processId),
      body: JSON.stringify({ code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false }),
    },
  };
}

export async function processInit(apiUrl: string): Promise<string> {
  const { url, init } = processInitRequest(apiUrl);
  const answer = await json<{ token: string }>(await fetch(url, init), 'process/init');
  return answer.token;
}

/** Enters an e-mail on sign-up; the server answers with the email-verify block and puts a code in the outbox. */
export async function signupInit(apiUrl: string, processId: string, email: string): Promise<BlockAnswer> {
  const response = await fetch(`${apiUrl}/v2/auth/signup/init`, {
    method: 'POST',
    headers: headers(processId),
    body: JSON.stringify({ identifiers: [{ type: 'email', identifier: email }], fullName: 'Bench' }),
  });
  return json<BlockAnswer>(response, 'signup/init');
}

interface OutboxEntry {
  to: string;
  code?: string;
  createdAt: string;
}

/** The newest code the dev outbox holds for an address. */
export async function outboxCode(apiUrl: string, to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const messages = await json<OutboxEntry[]>(await fetch(`${apiUrl}/_dev/messages?to=${encodeURIComponent(to)}`), 'outbox');
    const code = messages[0]?.code;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no code in the dev outbox for ${to}`);
}

export async function verifyFinish(apiUrl: string, processId: string, code: string): Promise<BlockAnswer> {
  const { url, init } = verifyFinishRequest(apiUrl, processId, code);
  return json<BlockAnswer>(await fetch(url, init), 'verify/finish');
}

let counter = 0;
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `bench-${tag}-${process.pid}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** A process waiting at email-verify, with the code that the server sent. */
export interface PendingVerification {
  processId: string;
  email: string;
  code: string;
}

export async function pendingVerification(apiUrl: string, tag: string): Promise<PendingVerification> {
  const processId = await processInit(apiUrl);
  const email = uniqueEmail(tag);
  const answer = await signupInit(apiUrl, processId, email);
  if (answer.blockBody.block !== 'email-verify') throw new Error(`signup/init answered ${answer.blockBody.block}, expected email-verify`);
  return { processId, email, code: await outboxCode(apiUrl, email) };
}

/** Signs a new user up with an e-mail code; returns the sessions of the completed block (dev project). */
export async function signedUpUser(apiUrl: string): Promise<CompletedSessions & { email: string }> {
  const pending = await pendingVerification(apiUrl, 'user');
  let answer = await verifyFinish(apiUrl, pending.processId, pending.code);
  if (answer.blockBody.block === 'passkey-append') {
    answer = await json<BlockAnswer>(
      await fetch(`${apiUrl}/v2/auth/process/complete`, { method: 'POST', headers: headers(pending.processId) }),
      'process/complete',
    );
  }
  const data = answer.blockBody.data as Partial<CompletedSessions> | undefined;
  if (answer.blockBody.block !== 'completed' || !data?.shortSession) {
    throw new Error(`sign-up ended on ${answer.blockBody.block}, expected completed with a short session`);
  }
  return { email: pending.email, shortSession: data.shortSession, ...(data.longSession ? { longSession: data.longSession } : {}) };
}
