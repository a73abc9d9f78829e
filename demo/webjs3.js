// Host code as a site written for @corbado/web-js 3 has it: only that version's API (load, the mount
// calls, logout, sessionToken, sessionTokenChanges, userChanges, authStateChanges, getFullUser,
// getPasskeys). It runs unchanged on Corbado's client and on this project's bundle.
(function () {
  const params = new URLSearchParams(window.location.search);
  const projectId = params.get('project') || 'pro-1';
  const authElement = document.getElementById('corbado-auth');
  const userElement = document.getElementById('corbado-user');
  const passkeysElement = document.getElementById('corbado-passkeys');
  const logoutButton = document.getElementById('logout');
  document.getElementById('project-id').textContent = projectId;
  document.getElementById('client').textContent = params.get('client') === 'web-js' ? '@corbado/web-js 3.5.0' : "this project's bundle";

  function log(text) {
    const item = document.createElement('li');
    item.textContent = text;
    document.getElementById('host-events').append(item);
  }

  function show(id, value) {
    document.getElementById(id).textContent = value;
  }

  let mounted;
  async function render() {
    if (mounted === 'auth') Corbado.unmountAuthUI(authElement);
    if (mounted === 'account') {
      Corbado.unmountUserUI(userElement);
      Corbado.unmountPasskeyListUI(passkeysElement);
    }
    logoutButton.hidden = !Corbado.isAuthenticated;
    if (!Corbado.isAuthenticated) {
      mounted = 'auth';
      show('host-full-user', '-');
      show('host-passkeys', '-');
      Corbado.mountAuthUI(authElement, {
        onLoggedIn: () => {
          log('onLoggedIn');
          void render();
        },
      });
      return;
    }
    mounted = 'account';
    Corbado.mountUserUI(userElement);
    Corbado.mountPasskeyListUI(passkeysElement);
    const user = await Corbado.getFullUser();
    show('host-full-user', user.ok ? `${user.val.fullName} <${user.val.identifiers.map((i) => i.value).join(', ')}>` : `error: ${user.val.message}`);
    const passkeys = await Corbado.getPasskeys();
    show('host-passkeys', passkeys.ok ? `${passkeys.val.passkeys.length} passkey(s)` : `error: ${passkeys.val.message}`);
  }

  logoutButton.addEventListener('click', async () => {
    await Corbado.logout();
    log('logged out');
    void render();
  });

  const options = { projectId, darkMode: 'off' };
  // Corbado's client ignores frontendApiUrl; this project's bundle uses it unless ?api=hosted
  if (params.get('api') !== 'hosted' && window.DEMO_CONFIG) options.frontendApiUrl = window.DEMO_CONFIG.apiUrl;
  Corbado.load(options).then(
    () => {
      Corbado.sessionTokenChanges.subscribe((token) => show('host-session-token', token ? `a JWT of ${token.split('.').length} parts` : 'none'));
      Corbado.userChanges.subscribe((user) => show('host-user', user ? JSON.stringify({ email: user.email, name: user.name }) : 'none'));
      Corbado.authStateChanges.subscribe((state) => show('host-authenticated', String(Corbado.isAuthenticated) + ' (state ' + state + ')'));
      void render();
    },
    (error) => log('load failed: ' + (error && error.message ? error.message : error)),
  );
})();
