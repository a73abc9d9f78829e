// A block as the widget uses it: the server's blockBody, checked and normalised.
import {
  BLOCK_TYPES,
  type AuthType,
  type BlockBody,
  type BlockType,
  type ContinueReason,
  type LoginInitData,
  type RequestError,
  type SignupInitData,
  type VerificationMethod,
} from '../api/types';
import { invalidBlockType, invalidUserHandleType, type CorbadoError } from '../errors';

export interface FlowBlock {
  type: BlockType;
  authType: AuthType;
  data: Record<string, unknown>;
  alternatives: FlowBlock[];
  /** a popup error attached to the block */
  error?: RequestError;
  /**
   * the failure of the last call made on this block, or of the call that led to it after the process
   * was loaded again (SPEC.md section 4, "Errors in the flow"): it is shown with the block and goes
   * when the block does
   */
  failure?: CorbadoError;
  continueReason?: ContinueReason;
}

export function parseBlock(body: BlockBody): FlowBlock {
  if (body.continueOnOtherDevice) {
    const reason = body.continueOnOtherDevice.reason;
    return {
      type: 'continue-on-other-env',
      authType: body.authType === 'login' ? 'login' : 'signup',
      data: { reason },
      alternatives: [],
      continueReason: reason === 'email-link-verified' ? reason : 'process-already-completed',
    };
  }
  if (!BLOCK_TYPES.includes(body.block)) throw invalidBlockType(String(body.block));
  // passkey-append names the identifier the passkey is for; one the widget does not know cannot be shown
  // or edited (web-js 3.5 refuses it too; SPEC.md section 8, "Invalid user handle type")
  if (body.block === 'passkey-append' && !['email', 'phone', 'username'].includes(body.data?.identifierType as string)) throw invalidUserHandleType();
  return {
    type: body.block,
    authType: body.authType === 'login' ? 'login' : 'signup',
    data: body.data ?? {},
    alternatives: (body.alternatives ?? []).map(parseBlock),
    error: body.error,
  };
}

/**
 * "Initial" processes are replaced by a new one at start-up: login-init with an empty identifier, or
 * signup-init with all identifiers empty, while social sign-in has not started.
 */
export function isInitialBlock(block: FlowBlock): boolean {
  if (block.type === 'login-init') {
    const data = block.data as unknown as LoginInitData;
    return !data.identifierValue && data.socialData?.status === 'initial';
  }
  if (block.type === 'signup-init') {
    const data = block.data as unknown as SignupInitData;
    return (data.identifiers ?? []).every((i) => !i.identifier) && data.socialData?.status === 'initial';
  }
  return false;
}

export function verificationMethodOf(block: FlowBlock): VerificationMethod | undefined {
  return block.data.verificationMethod as VerificationMethod | undefined;
}

/** Switches to an alternative locally: the block left behind becomes an alternative of the new one. */
export function switchTo(block: FlowBlock, type: BlockType): FlowBlock | undefined {
  const target = block.alternatives.find((a) => a.type === type);
  if (!target) return undefined;
  const others = block.alternatives.filter((a) => a !== target);
  return { ...target, error: undefined, failure: undefined, alternatives: [{ ...block, error: undefined, failure: undefined, alternatives: [] }, ...others] };
}
