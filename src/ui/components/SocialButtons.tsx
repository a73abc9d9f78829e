import type { SocialProvider } from '../../core/api/types';
import { useApp, useT } from '../context';
import { Button } from './Button';
import { ProviderMark } from './Icon';

/**
 * Social sign-in under a divider; compact, icon-only buttons when there are more than two providers.
 * `start` replaces the plain start (sign-up sends its fields along).
 */
export function SocialButtons({ providers, disabled, start }: { providers: SocialProvider[]; disabled?: boolean; start?: (provider: SocialProvider) => void }) {
  const { flow } = useApp();
  const t = useT();
  if (!providers.length) return null;
  const compact = providers.length > 2;
  return (
    <div className="cb-social">
      <div className="cb-divider" part="divider">{t('common.or')}</div>
      <div className={compact ? 'cb-social-buttons cb-compact' : 'cb-social-buttons'}>
        {providers.map((provider) => {
          const label = t('social.continueWith', { provider: t(`social.${provider}`) });
          return (
            <Button
              key={provider}
              variant="secondary"
              part="button-secondary provider-button"
              aria-label={compact ? label : undefined}
              title={compact ? label : undefined}
              disabled={disabled}
              onClick={() => (start ? start(provider) : void flow.startSocial(provider))}
            >
              <ProviderMark provider={provider} />
              {!compact && label}
            </Button>
          );
        })}
      </div>
    </div>
  );
}
