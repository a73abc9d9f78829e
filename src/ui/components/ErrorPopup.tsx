import { useStore } from '@nanostores/react';
import type { RequestError } from '../../core/api/types';
import type { CorbadoError } from '../../core/errors';
import { hasText } from '../../core/i18n/i18n';
import { useApp, useT } from '../context';
import { Icon } from './Icon';

/**
 * The unexpected-error popup: the translated message if there is one, otherwise a text naming customer
 * support when a support address is configured, otherwise a generic text.
 */
export function ErrorPopup() {
  const app = useApp();
  const t = useT();
  const globalError = useStore(app.flow.$error);
  const block = useStore(app.flow.$block);
  // the e-mail link's own screen shows its failure as its header, the social round trip's all of its errors
  const screen = useStore(app.flow.$screen);
  const onLinkScreen = screen === 'email-link-verification';
  // init blocks carry their popup error in data.error (social sign-in, no fallback available)
  const initError = block?.type === 'signup-init' || block?.type === 'login-init' ? (block.data.error as RequestError | undefined) : undefined;
  const message = failureText(t, block?.error ?? initError, (onLinkScreen ? undefined : block?.failure) ?? globalError, app.options.customerSupportEmail);
  if (!message || screen === 'social-verify') return null;
  return (
    <div className="cb-popup" part="error" role="alert">
      <Icon name="warning" />
      <p>{message}</p>
      <button type="button" className="cb-icon-button" aria-label={t('common.close')} onClick={() => app.flow.dismissError()}>
        <Icon name="close" />
      </button>
    </div>
  );
}

export function failureText(
  t: (key: string, values?: Record<string, string | number>) => string,
  requestError: RequestError | undefined,
  failure: CorbadoError | undefined,
  supportEmail: string | undefined,
): string | undefined {
  if (requestError) {
    return hasText(`errors.${requestError.code}`) ? t(`errors.${requestError.code}`) : requestError.message || t('errors.unknown');
  }
  if (!failure || failure.ignorable) return undefined;
  if (failure.type && hasText(`errors.${failure.type}`)) return t(`errors.${failure.type}`);
  if (failure.kind !== 'unhandledBackendError' && failure.kind !== 'unhandledFrontendError' && hasText(failure.translationKey)) {
    return t(failure.translationKey, failure.translationValues);
  }
  return supportEmail ? t('errors.unexpectedError', { email: supportEmail }) : t('errors.unexpectedErrorNoSupport');
}
