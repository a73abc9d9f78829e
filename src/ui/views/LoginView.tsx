import { FlowView } from './FlowView';

/** The log-in view: starts on login-init. */
export function LoginView() {
  return <FlowView mode="login" />;
}
