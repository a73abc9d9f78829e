// The demo host page: loads the widget for ?project=pro-N (pro-1 by default) against the local
// Frontend API, mounts the page's view, and shows the host's view of the session outside the widget.
// The project is remembered for the tab, because a social sign-in returns to the page without the query;
// so are the language and colour scheme, used again when the page comes back without any query.
(function () {
  const params = new URLSearchParams(window.location.search);

  /** The query's value, kept for the tab; without one, the kept value where `recall` says so. */
  function remembered(key, given, recall) {
    try {
      if (given) window.sessionStorage.setItem(key, given);
      return given || (recall ? window.sessionStorage.getItem(key) : null);
    } catch {
      return given; // storage blocked: only the query counts
    }
  }

  const projectId = remembered('demo-project', params.get('project'), true) || 'pro-1';
  const bare = !window.location.search;
  const lang = remembered('demo-lang', params.get('lang'), bare);
  const dark = remembered('demo-dark', params.get('dark'), bare);
  const config = window.DEMO_CONFIG || {};
  const view = document.body.dataset.view;
  const events = document.getElementById('host-events');

  function log(text) {
    const item = document.createElement('li');
    item.textContent = new Date().toLocaleTimeString() + ' ' + text;
    events.prepend(item);
  }

  /**
   * Asks the host's own backend (demo/demoServer.ts, GET /host-api/profile) who is logged in: it
   * trusts the short session only after verifying it, and answers the user or why it refused.
   */
  let askedBackend = 0;
  function askBackend(shortSession) {
    const output = document.getElementById('host-backend');
    if (!output) return;
    const asked = ++askedBackend;
    // a host asks its protected API only with a session to show it (the 401 without one is proven
    // in e2e/hostBackend.spec.ts by a direct request)
    if (!shortSession) {
      output.textContent = 'not asked: nobody is logged in';
      return;
    }
    window.fetch('/host-api/profile?project=' + encodeURIComponent(projectId), { headers: { Authorization: 'Bearer ' + shortSession } })
      .then((res) => res.json().then((body) => ({ status: res.status, body: body })))
      .then(function (answer) {
        if (asked !== askedBackend) return; // a newer session was asked about meanwhile
        const body = answer.body;
        output.textContent =
          answer.status === 200
            ? body.name + ' (' + body.id + '), ' + (body.email ? 'verified e-mail ' + body.email : 'no verified e-mail')
            : answer.status + ': ' + body.error;
      })
      .catch(function (error) {
        if (asked === askedBackend) output.textContent = 'unreachable: ' + error.message;
      });
  }

  document.getElementById('project-id').textContent = projectId;
  for (const link of document.querySelectorAll('a[data-keep-project]')) {
    link.search = '?project=' + encodeURIComponent(projectId);
  }

  const language = lang;
  // a language the bundle does not hold (fr, es, it, nl, pt, pl) comes as its add-on script beside the
  // bundle; a host page puts <script src=".../corbado.fr.js"> after corbado.js, the demo adds it for ?lang=
  if (language && language !== 'en' && language !== 'de' && /^[a-z]{2}$/.test(language)) {
    const addOn = document.createElement('script');
    addOn.src = '/dist/corbado.' + language + '.js';
    addOn.onload = addOn.onerror = start;
    document.head.append(addOn);
  } else start();

  function start() {
    Corbado.load({
      projectId,
      // ?api= and ?timeout= point the page at another Frontend API and shorten the request timeout
      // (the fault scenarios of the end-to-end tests use both)
      frontendApiUrl: params.get('api') || config.apiUrl,
      apiTimeout: Number(params.get('timeout')) || undefined,
      darkMode: dark || 'off',
      defaultLanguage: language || 'en',
      autoDetectLanguage: !language,
      customerSupportEmail: 'support@example.com',
      isDevMode: true,
      // ?remember=off: the page asks the widget not to remember the account (no welcome back)
      rememberLastUser: params.get('remember') !== 'off',
    }).then(
      function () {
        Corbado.userChanges.subscribe(function (user) {
          document.getElementById('host-user').textContent = user ? JSON.stringify(user, null, 2) : 'none';
        });
        Corbado.authStateChanges.subscribe(function (state) {
          document.getElementById('host-auth-state').textContent = state === 1 ? 'logged in' : 'logged out';
        });
        const element = document.getElementById('widget');
        // the DOM events a page without a framework listens to (README, "Events")
        for (const type of ['signup', 'login', 'logout', 'error']) {
          document.addEventListener('corbado:' + type, function (event) {
            const detail = event.detail || {};
            log('corbado:' + type + (detail.method ? ' ' + detail.method : '') + (detail.code ? ' ' + detail.code : ''));
          });
        }
        if (view === 'auth') Corbado.mountAuthUI(element, { onLoggedIn: () => log('onLoggedIn') });
        if (view === 'signup') Corbado.mountSignUpUI(element, { onSignedUp: () => log('onSignedUp') });
        if (view === 'login') Corbado.mountLoginUI(element, { onLoggedIn: () => log('onLoggedIn') });
        if (view === 'account') {
          Corbado.shortSessionChanges.subscribe(askBackend);
          Corbado.mountUserUI(document.getElementById('user-details'));
          Corbado.mountPasskeyListUI(element);
          document.getElementById('logout').addEventListener('click', function () {
            Corbado.logout().then(() => log('logged out'));
          });
        }
      },
      function (error) {
        document.getElementById('widget').textContent = String(error && error.message ? error.message : error);
        log('load failed: ' + error.message);
      },
    );
  }
})();
