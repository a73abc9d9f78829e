// The social sign-in under way (social.ts): its provider, kept in this browser's storage across the
// provider's page, so that the way back knows which provider it came from.
import type { SocialProvider } from '../api/types';
import { readItem, storageKeys } from '../storage';

/** The provider of the social sign-in under way, if any. */
export function socialProviderUnderWay(): SocialProvider | undefined {
  return readItem(storageKeys.socialLogin) as SocialProvider | undefined;
}
