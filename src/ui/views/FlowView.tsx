import { useStore } from '@nanostores/react';
import { useEffect, useRef, type RefObject } from 'react';
import { invalidScreen } from '../../core/errors';
import type { ScreenName } from '../../core/process/screens';
import { EditIdentifierScreen } from '../blocks/email-verify/EditIdentifierScreen';
import { EmailLinkApprovalScreen } from '../blocks/email-verify/EmailLinkApprovalScreen';
import { EmailLinkSentScreen } from '../blocks/email-verify/EmailLinkSentScreen';
import { EmailLinkSuccessScreen } from '../blocks/email-verify/EmailLinkSuccessScreen';
import { EmailLinkVerificationScreen } from '../blocks/email-verify/EmailLinkVerificationScreen';
import { OtpScreen } from '../blocks/email-verify/OtpScreen';
import { LoginInitScreen } from '../blocks/login-init/LoginInitScreen';
import { WelcomeBackScreen } from '../blocks/login-init/WelcomeBackScreen';
import { MissingFieldsScreen } from '../blocks/missing-fields/MissingFieldsScreen';
import { PasskeyAppendScreen } from '../blocks/passkey-append/PasskeyAppendScreen';
import { PasskeyBenefitsScreen } from '../blocks/passkey-append/PasskeyBenefitsScreen';
import { PasskeyErrorScreen } from '../blocks/passkey-append/PasskeyErrorScreen';
import { PasskeyAppendedScreen } from '../blocks/passkey-appended/PasskeyAppendedScreen';
import { PasskeyBackgroundScreen } from '../blocks/passkey-verify/PasskeyBackgroundScreen';
import { ConfirmProcessAbortScreen } from '../blocks/process-abort/ConfirmProcessAbortScreen';
import { SignupInitScreen } from '../blocks/signup-init/SignupInitScreen';
import { SocialVerifyScreen } from '../blocks/social-verify/SocialVerifyScreen';
import { ComponentUnavailable } from '../components/ComponentUnavailable';
import { ErrorPopup } from '../components/ErrorPopup';
import { Footer } from '../components/Footer';
import { sentText } from '../components/ResendButton';
import { Spinner } from '../components/Spinner';
import { mayTakeFocus, useAnnounce, useApp, useT } from '../context';
import type { FlowBlock } from '../../core/process/block';

export type FlowMode = 'auth' | 'signup' | 'login';

function Screen({ screen, block }: { screen: ScreenName; block: FlowBlock }) {
  const { flow } = useApp();
  const linkVerifiedHere = useStore(flow.$linkVerifiedHere);
  switch (screen) {
    case 'login-init':
      return <LoginInitScreen key={block.type} />;
    case 'welcome-back':
      return <WelcomeBackScreen />;
    case 'signup-init':
      return <SignupInitScreen />;
    case 'email-otp-verification':
      return <OtpScreen channel="email" />;
    case 'phone-otp':
      return <OtpScreen channel="phone" />;
    case 'email-link-sent':
      return <EmailLinkSentScreen />;
    case 'email-link-verification':
      return <EmailLinkVerificationScreen />;
    case 'email-link-approval':
      return <EmailLinkApprovalScreen />;
    case 'email-link-success':
      return <EmailLinkSuccessScreen variant="original-tab" />;
    case 'continue-on-other-device':
      return <EmailLinkSuccessScreen variant={block.continueReason === 'email-link-verified' || linkVerifiedHere ? 'new-tab' : 'other-tab'} />;
    case 'edit-email':
      return <EditIdentifierScreen type="email" />;
    case 'edit-phone':
      return <EditIdentifierScreen type="phone" />;
    case 'edit-user-data':
      return <EditIdentifierScreen type={(block.data.identifierType as 'email' | 'phone' | 'username') ?? 'email'} />;
    case 'missing-fields':
      return <MissingFieldsScreen key={block.type} />;
    case 'passkey-append':
      return <PasskeyAppendScreen />;
    case 'passkey-benefits':
      return <PasskeyBenefitsScreen />;
    case 'passkey-error':
      return <PasskeyErrorScreen />;
    case 'passkey-appended':
      return <PasskeyAppendedScreen />;
    case 'passkey-background':
      return <PasskeyBackgroundScreen />;
    case 'confirm-process-abort':
      return <ConfirmProcessAbortScreen />;
    case 'social-verify':
      return <SocialVerifyScreen />;
    case 'end':
      return null;
    default:
      throw invalidScreen(String(screen));
  }
}

/**
 * Every screen change moves the focus to the new screen's first field or, without one, to its heading,
 * and says the heading (and what was sent) through the live region. The first screen only takes the
 * focus for a field, and no screen takes it from the host page.
 */
function useScreenFocus(card: RefObject<HTMLDivElement | null>, key: string | undefined, sent: string | undefined) {
  const announce = useAnnounce();
  const shown = useRef<string>(undefined);
  useEffect(() => {
    const root = card.current;
    if (!key || shown.current === key) return;
    const first = !shown.current;
    shown.current = key;
    // completed draws nothing: nothing stays in the live region either
    const heading = root?.querySelector<HTMLElement>('h1');
    if (!first) announce(heading ? [heading.textContent, sent].filter(Boolean).join('. ') : '');
    if (root && mayTakeFocus(root)) (root.querySelector('input') ?? (first ? null : heading))?.focus();
  });
}

/** The size and weight of each kind of text on the first screen: body, hint, label, button, heading. */
const FIRST_SCREEN_TEXT = [
  [15, 400],
  [13, 400],
  [14, 550],
  [15, 600],
  [22, 650],
] as const;

/**
 * A few letters in each font of the first screen, laid out unseen (and unheard) while the start-up
 * answer is awaited: the browser finds and loads the system font's faces now, not in the layout after
 * the answer, which then only places the screen (README, "A fresh visitor without a preflight").
 */
function FontWarmUp() {
  return (
    <p className="cb-sr" aria-hidden="true">
      {FIRST_SCREEN_TEXT.map(([size, weight]) => (
        <span key={size * weight} style={{ fontSize: size, fontWeight: weight }}>
          Aa
        </span>
      ))}
    </p>
  );
}

/**
 * The auth process as a view: a spinner while it starts, the component-unavailable page when it
 * cannot, otherwise the current screen with the error popup and the footer badge.
 */
export function FlowView({ mode }: { mode: FlowMode }) {
  const { flow } = useApp();
  const initState = useStore(flow.$initState);
  const block = useStore(flow.$block);
  const screen = useStore(flow.$screen);
  const hideBadge = useStore(flow.$hideBadge);
  const t = useT();
  const card = useRef<HTMLDivElement>(null);
  const key = initState === 1 ? 'unavailable' : initState === 2 && block ? `${block.type}/${screen}` : undefined;
  useScreenFocus(card, key, block && sentText(t, screen, block));

  useEffect(() => {
    if (mode !== 'auth') void flow.prefer(mode === 'signup' ? 'signup-init' : 'login-init');
    else void flow.start();
    return flow.attachHistory();
  }, [flow, mode]);

  if (initState === 1) {
    return (
      <div className="cb-card" part="container" ref={card}>
        <ComponentUnavailable onRetry={() => void flow.retry()} />
      </div>
    );
  }
  if (initState === 0 || !block) {
    return (
      <div className="cb-card cb-loading" part="container" aria-busy="true">
        <Spinner />
        <FontWarmUp />
      </div>
    );
  }
  if (screen === 'end') return null;
  return (
    <div className="cb-card" part="container" ref={card}>
      <ErrorPopup />
      <Screen screen={screen} block={block} />
      {!hideBadge && <Footer />}
    </div>
  );
}
