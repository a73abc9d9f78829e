import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { IdentifierType, SignupInitData } from '../../../core/api/types';
import { checkEmail, checkFullName, checkUsername } from '../../../core/validation/identifiers';
import { checkPhone, DEFAULT_COUNTRY } from '../../../core/validation/phone';
import { Button, LinkButton } from '../../components/Button';
import { Form } from '../../components/Form';
import { Header } from '../../components/Header';
import { PhoneInput, type PhoneValue } from '../../components/PhoneInput';
import { SocialButtons } from '../../components/SocialButtons';
import { TextField } from '../../components/TextField';
import { useApp, useT } from '../../context';
import { useBlock } from '../../hooks';
import { requestErrorText } from '../../requestErrorText';

type Field = 'fullName' | IdentifierType;
type Errors = Partial<Record<Field, string>>;

function serverErrors(data: SignupInitData): Errors {
  const errors: Errors = {};
  const fullName = requestErrorText(data.fullName?.error);
  if (fullName) errors.fullName = fullName;
  for (const identifier of data.identifiers ?? []) {
    const text = requestErrorText(identifier.error, identifier.type);
    if (text) errors[identifier.type] = text;
  }
  return errors;
}

/** Sign up: name, username, e-mail and phone, each only when the block asks for it. */
export function SignupInitScreen() {
  const { flow } = useApp();
  const t = useT();
  const { block, data, busy } = useBlock<SignupInitData>();
  const appName = useStore(flow.$appName);
  const has = (type: IdentifierType) => data.identifiers?.some((i) => i.type === type);
  const initial = (type: IdentifierType) => data.identifiers?.find((i) => i.type === type)?.identifier ?? '';

  const [fullName, setFullName] = useState(data.fullName?.fullName ?? '');
  const [username, setUsername] = useState(initial('username'));
  const [email, setEmail] = useState(initial('email'));
  const [phone, setPhone] = useState<PhoneValue>({ text: initial('phone'), country: DEFAULT_COUNTRY });
  const [errors, setErrors] = useState<Errors>(() => serverErrors(data));

  useEffect(() => setErrors(serverErrors(data)), [data]);

  const edit = <T,>(field: Field, set: (value: T) => void) => (value: T) => {
    set(value);
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const submit = () => {
    const found: Errors = {};
    const fields: { fullName?: string; email?: string; phone?: string; username?: string } = {};
    if (data.fullName) {
      const problem = checkFullName(fullName);
      if (problem) found.fullName = t(problem);
      fields.fullName = fullName.trim();
    }
    if (has('username')) {
      const problem = checkUsername(username.trim());
      if (problem) found.username = t(problem);
      fields.username = username.trim();
    }
    if (has('email')) {
      const problem = checkEmail(email.trim());
      if (problem) found.email = t(problem);
      fields.email = email.trim();
    }
    if (has('phone')) {
      const checked = checkPhone(phone.text, phone.country);
      if (checked.problem) found.phone = t(checked.problem);
      fields.phone = checked.e164;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    void flow.submitSignup(fields);
  };

  const login = block.alternatives.find((a) => a.type === 'login-init');

  return (
    <Form onSubmit={submit} busy={busy}>
      <Header title={t('signupInit.header')} subtitle={t('signupInit.subheader', { appName })} />
      {data.fullName && (
        <TextField label={t('fields.fullName')} name="name" autoComplete="name" value={fullName} onChange={edit('fullName', setFullName)} error={errors.fullName} />
      )}
      {has('username') && (
        <TextField
          label={t('fields.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={edit('username', setUsername)}
          error={errors.username}
        />
      )}
      {has('email') && (
        <TextField
          label={t('fields.email')}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          value={email}
          onChange={edit('email', setEmail)}
          error={errors.email}
          dir="ltr"
        />
      )}
      {has('phone') && <PhoneInput label={t('fields.phone')} value={phone} onChange={edit('phone', setPhone)} error={errors.phone} />}
      <Button type="submit" busy={busy}>
        {t('signupInit.submit')}
      </Button>
      <SocialButtons providers={data.socialData?.providers ?? []} disabled={busy} />
      {login && (
        <p className="cb-switch">
          {t('signupInit.haveAccount')}{' '}
          <LinkButton onClick={() => flow.switchToAlternative('login-init')}>
            {t('signupInit.logIn')}
          </LinkButton>
        </p>
      )}
    </Form>
  );
}
