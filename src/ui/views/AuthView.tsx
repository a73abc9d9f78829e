import { FlowView } from './FlowView';

/** The combined view: sign-up and log-in, starting where the server or the address says. */
export function AuthView() {
  return <FlowView mode="auth" />;
}
