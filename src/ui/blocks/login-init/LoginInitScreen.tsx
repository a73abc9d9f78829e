import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { LoginInitData } from '../../../core/api/types';
import { checkEmail, checkEmailOrUsername, checkUsername, identifierTypeOf } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button, LinkButton } from '../../components/Button';
import { Form } from '../../components/Form';
import { Header } from '../../components/Header';
import type { PhoneValue } from '../../components/PhoneInput';
import { PhoneInput } from '../../components/PhoneInput';
import { SocialButtons } from '../../components/SocialButtons';
import { TextField } from '../../components/TextField';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

/** Log in: one identifier field (e-mail, username, both, or phone), social buttons, a link to sign up. */
export function LoginInitScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<LoginInitData>();
  const appName = useStore(flow.$appName);
  const otherAvailable = data.isEmailAvailable || data.isUsernameAvailable;
  const [usePhone, setUsePhone] = useState(data.isPhone || !otherAvailable);
  const [value, setValue] = useState(data.isPhone ? '' : data.identifierValue);
  const [phone, setPhone] = useState<PhoneValue>({ text: '', country: DEFAULT_COUNTRY });
  const [error, setError] = useState<string>();

  const serverError = data.fieldError;
  useEffect(() => setError(requestErrorText(serverError, usePhone ? 'phone' : identifierTypeOf(value))), [serverError]);

  useEffect(() => {
    void flow.startConditionalUi();
    return () => flow.stopConditionalUi();
  }, [flow, data.conditionalUIChallenge]);

  const fieldKind = data.isEmailAvailable && data.isUsernameAvailable ? 'emailOrUsername' : data.isUsernameAvailable ? 'username' : 'email';
  const check = fieldKind === 'emailOrUsername' ? checkEmailOrUsername : fieldKind === 'username' ? checkUsername : checkEmail;

  const submit = () => {
    if (usePhone) {
      const checked = checkPhone(phone.text, phone.country);
      if (checked.problem !== undefined) return setError(t(checked.problem));
      setError(undefined);
      return void flow.submitLogin(checked.e164, true);
    }
    const problem = check(value.trim());
    if (problem) return setError(t(problem));
    setError(undefined);
    void flow.submitLogin(value.trim(), false);
  };

  const signup = block.alternatives.find((a) => a.type === 'signup-init');
  const providers = data.socialData?.providers ?? [];

  return (
    <Form onSubmit={submit} busy={busy}>
      <Header title={t('loginInit.header')} subtitle={t('loginInit.subheader', { appName })} />
      {usePhone ? (
        <PhoneInput label={t('fields.phone')} value={phone} onChange={(next) => (setPhone(next), setError(undefined))} error={error} />
      ) : (
        <TextField
          label={t(`fields.${fieldKind}`)}
          name="identifier"
          type={fieldKind === 'email' ? 'email' : 'text'}
          inputMode={fieldKind === 'username' ? 'text' : 'email'}
          autoComplete="username webauthn"
          dir="ltr"
          autoCapitalize="none"
          spellCheck={false}
          value={value}
          onChange={(next) => (setValue(next), setError(undefined))}
          error={error}
        />
      )}
      {data.isPhoneAvailable && otherAvailable && (
        <LinkButton onClick={() => (setUsePhone(!usePhone), setError(undefined))}>
          {usePhone ? t(`loginInit.use.${fieldKind}`) : t('loginInit.use.phone')}
        </LinkButton>
      )}
      <Button type="submit" busy={busy}>
        {t('loginInit.submit')}
      </Button>
      <SocialButtons providers={providers} disabled={busy} />
      {signup && (
        <p className="cb-switch">
          {t('loginInit.noAccount')}{' '}
          <LinkButton onClick={() => flow.switchToAlternative('signup-init')}>
            {t('loginInit.signUp')}
          </LinkButton>
        </p>
      )}
    </Form>
  );
}
