// The host script of the legacy pages (demo/legacy-*.html): loaded after the page's legacy scripts and
// the bundle. Mounts ?view=auth|signup|login into #widget and, where the page has #second-view, the
// passkey list there too (a second view of another kind: two auth views would share one process); shows the auth state and the number of times the page's form was submitted (the
// widget must never submit it). Written as the ES5 such pages have.
(function () {
  var params = new URLSearchParams(window.location.search);
  var submits = 0;
  document.addEventListener(
    'submit',
    function () {
      submits += 1;
      document.getElementById('host-form-submits').textContent = String(submits);
    },
    true,
  );
  document.getElementById('host-logout').onclick = function () {
    Corbado.logout();
  };
  Corbado.load({
    projectId: params.get('project') || 'pro-1',
    frontendApiUrl: (window.DEMO_CONFIG || {}).apiUrl,
    darkMode: 'off',
    defaultLanguage: 'en',
    autoDetectLanguage: false,
  }).then(function () {
    var element = document.getElementById('widget');
    var view = params.get('view');
    if (view === 'signup') Corbado.mountSignUpUI(element);
    else if (view === 'login') Corbado.mountLoginUI(element);
    else Corbado.mountAuthUI(element);
    var second = document.getElementById('second-view');
    if (second) Corbado.mountPasskeyListUI(second);
    Corbado.authStateChanges.subscribe(function (state) {
      document.getElementById('host-auth-state').textContent = state === 1 ? 'logged in' : 'logged out';
    });
  });
})();
