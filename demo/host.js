// The bare host pages (plain.html, hostile.html, rtl.html): the widget and nothing else of the demo,
// so that what the page does to it is all that differs. Query: ?project=pro-N, ?view=auth|signup|login,
// ?lang=en|de, ?dark=on|off.
(function () {
  const params = new URLSearchParams(window.location.search);
  const element = document.getElementById('widget');
  Corbado.load({
    projectId: params.get('project') || 'pro-1',
    frontendApiUrl: (window.DEMO_CONFIG || {}).apiUrl,
    darkMode: params.get('dark') || 'off',
    defaultLanguage: params.get('lang') || 'en',
    autoDetectLanguage: false,
  }).then(function () {
    const view = params.get('view');
    if (view === 'signup') Corbado.mountSignUpUI(element);
    else if (view === 'login') Corbado.mountLoginUI(element);
    else Corbado.mountAuthUI(element);
  });
})();
