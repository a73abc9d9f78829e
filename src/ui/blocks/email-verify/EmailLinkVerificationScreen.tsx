import { useStore } from '@nanostores/react';
import type { VerifyIdentifierData } from '../../../core/api/types';
import { Button } from '../../components/Button';
import { failureText } from '../../components/ErrorPopup';
import { Header } from '../../components/Header';
import { Spinner } from '../../components/Spinner';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

/**
 * Opening an e-mail link: a spinner while it is checked, or an error view headed by the translated error
 * (also where the tab that asked learns that its link expired or was declined).
 */
export function EmailLinkVerificationScreen() {
  const { flow, options } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<VerifyIdentifierData>();
  // a failed check (server trouble, a frontend error) is attached to the block: its text heads this
  // screen instead of a spinner that would never end (ErrorPopup leaves it to this screen)
  const failure = useStore(flow.$ceremonyError) ?? block.failure;
  const error = requestErrorText(data.error) ?? failureText(t, undefined, failure, options.customerSupportEmail);
  if (!error || busy) {
    return (
      <div className="cb-form cb-center">
        <Header title={t('emailLink.verifying')} />
        <Spinner />
      </div>
    );
  }
  // a declined request is over; a new link is asked for where the request was made, not at the link
  const declined = data.error?.code === 'email_link_declined';
  return (
    <div className="cb-form" role="alert">
      <Header title={error} subtitle={t(declined ? 'emailLinkRequest.declined' : 'emailLink.errorBody')} />
      {!declined && !flow.linkPage && <Button onClick={() => void flow.resend().then(() => flow.setScreen('email-link-sent'))}>{t('emailLink.resend')}</Button>}
      <Button variant="secondary" onClick={() => void flow.abort()}>
        {t('common.startOver')}
      </Button>
    </div>
  );
}
