import type { RequestError } from '../../../core/api/types';
import { Button } from '../../components/Button';
import { failureText } from '../../components/ErrorPopup';
import { Header } from '../../components/Header';
import { Spinner } from '../../components/Spinner';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/**
 * The provider round trip (the social-verify block, and sign-up's or log-in's social sign-in): a spinner
 * naming the provider while it is started or finished, or its failure as the header with a way back.
 */
export function SocialVerifyScreen() {
  const { flow, options } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<{ error?: RequestError }>();
  const provider = flow.socialProvider();
  const error = busy ? undefined : failureText(t, block.error ?? data.error, block.failure, options.customerSupportEmail);
  if (!error) {
    return (
      <div className="cb-form cb-center">
        <Header title={t('socialVerify.header', { provider: provider ? t(`social.${provider}`) : '' })} />
        <Spinner />
      </div>
    );
  }
  return (
    <div className="cb-form" role="alert">
      <Header title={error} />
      <Button onClick={() => void flow.leaveSocialVerify()}>{t('common.back')}</Button>
    </div>
  );
}
