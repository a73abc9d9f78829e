import { useStore } from '@nanostores/react';
import type { VerifyIdentifierData } from '../../../core/api/types';
import { $language } from '../../../core/i18n/i18n';
import { Button } from '../../components/Button';
import { Header } from '../../components/Header';
import { IdentifierLine } from '../../components/IdentifierLine';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';

/** The match code, shown by the tab that asked and by the link's page elsewhere. */
export function MatchCode({ code }: { code: string }) {
  const t = useT();
  return (
    <>
      <p className="cb-text">{t('emailLink.code')}</p>
      <p className="cb-identifier cb-code">{code}</p>
    </>
  );
}

/**
 * An e-mail link opened in another browser than the one that asked for it: what it would approve (log-in
 * or sign-up, the app, the address, the browser that asked and when, the match code), and the choices.
 * Nothing happens without a click. Where the project refuses approvals, only "here instead" is offered.
 */
export function EmailLinkApprovalScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<VerifyIdentifierData>();
  const { age, browser, os, matchCode } = useStore(flow.$linkRequest)!;
  const app = useStore(flow.$appName);
  const minutes = age >= 60;
  const time = new Intl.RelativeTimeFormat(useStore($language)).format(-Math.max(1, minutes ? Math.floor(age / 60) : age), minutes ? 'minute' : 'second');
  return (
    <div className="cb-form">
      <Header title={t(matchCode ? `emailLinkRequest.${block.authType}` : 'emailLinkRequest.refused', { app })} subtitle={t('emailLinkRequest.asker', { browser, os, time })} />
      <IdentifierLine value={data.identifier} />
      {matchCode && <MatchCode code={matchCode} />}
      {(['approve', 'decline', 'here'] as const).map(
        (answer, i) =>
          (matchCode || i > 1) && (
            <Button key={answer} variant={matchCode ? (['primary', 'secondary', 'link'] as const)[i] : undefined} busy={busy} onClick={() => void flow.answerLink(answer)}>
              {t(i > 1 ? `emailLinkRequest.here.${block.authType}` : `emailLinkRequest.${answer}`)}
            </Button>
          ),
      )}
    </div>
  );
}
