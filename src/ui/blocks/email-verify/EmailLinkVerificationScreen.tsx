import { useStore } from '@nanostores/react';
import type { VerifyIdentifierData } from '../../../core/api/types';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { Spinner } from '../../components/Spinner';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

/** Opening an e-mail link: a spinner while it is checked, or an error view headed by the translated error. */
export function EmailLinkVerificationScreen() {
  const { flow } = useApp();
  const t = useT();
  const { data, busy } = useBlock<VerifyIdentifierData>();
  const failure = useStore(flow.$ceremonyError);
  const error = requestErrorText(data.error) ?? (failure && t(failure.translationKey));
  if (!error || busy) {
    return (
      <div className="cb-form cb-center">
        <Header title={t('emailLink.verifying')} />
        <Spinner delay={0} />
      </div>
    );
  }
  return (
    <div className="cb-form" role="alert">
      <Header title={error} subtitle={t('emailLink.errorBody')} />
      <Button onClick={() => void flow.resend().then(() => flow.setScreen('email-link-sent'))}>{t('emailLink.resend')}</Button>
      <Button variant="secondary" onClick={() => void flow.abort()}>
        {t('common.startOver')}
      </Button>
    </div>
  );
}
