// Screens: every block starts on its initial screen, and the screen resets only when the block type changes.
import type { BlockType, VerificationMethod } from '../api/types';
import { invalidScreen } from '../errors';

export type ScreenName =
  | 'signup-init'
  | 'login-init'
  /** login-init offering the account last logged in on this browser (lastUser.ts) */
  | 'welcome-back'
  | 'passkey-background'
  | 'passkey-benefits'
  | 'passkey-error'
  | 'passkey-append'
  | 'edit-user-data'
  | 'passkey-appended'
  | 'email-otp-verification'
  | 'email-link-sent'
  | 'email-link-verification'
  | 'email-link-approval'
  | 'edit-email'
  | 'phone-otp'
  | 'edit-phone'
  | 'missing-fields'
  | 'continue-on-other-device'
  | 'email-link-success'
  | 'confirm-process-abort'
  | 'social-verify'
  | 'end';

const SCREENS_OF_BLOCK: Partial<Record<BlockType, readonly ScreenName[]>> = {
  'signup-init': ['signup-init'],
  'login-init': ['login-init'],
  'passkey-verify': ['passkey-background', 'passkey-benefits', 'passkey-error'],
  'passkey-append': ['passkey-append', 'passkey-benefits', 'passkey-error', 'edit-user-data'],
  'passkey-appended': ['passkey-appended'],
  'email-verify': ['email-otp-verification', 'email-link-sent', 'email-link-verification', 'email-link-approval', 'edit-email', 'email-link-success'],
  'phone-verify': ['phone-otp', 'edit-phone'],
  'phone-collect': ['missing-fields'],
  'username-collect': ['missing-fields'],
  'continue-on-other-env': ['continue-on-other-device'],
  'social-verify': ['social-verify'],
  completed: ['end'],
};
SCREENS_OF_BLOCK['post-signup-email-verify'] = SCREENS_OF_BLOCK['email-verify'];

export function initialScreen(block: BlockType, verificationMethod?: VerificationMethod): ScreenName {
  switch (block) {
    case 'email-verify':
    case 'post-signup-email-verify':
      return verificationMethod === 'email-link' ? 'email-link-sent' : 'email-otp-verification';
    default: {
      const first = SCREENS_OF_BLOCK[block]?.[0];
      if (!first) throw invalidScreen(block);
      return first;
    }
  }
}
