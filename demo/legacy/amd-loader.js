// An AMD loader as RequireJS provides one (written for this demo): a global define with define.amd set,
// which UMD bundles detect and register with instead of setting their global.
(function () {
  var modules = {};
  // define(factory), define(deps, factory) and define(name, deps, factory); dependencies are not loaded
  window.define = function () {
    var factory = arguments[arguments.length - 1];
    var name = typeof arguments[0] === 'string' ? arguments[0] : 'anonymous-' + Object.keys(modules).length;
    modules[name] = typeof factory === 'function' ? factory() : factory;
    window.amdDefined = Object.keys(modules);
  };
  window.define.amd = { jQuery: true };
  window.require = function (deps, callback) {
    callback.apply(null, deps.map(function (dep) {
      return modules[dep];
    }));
  };
})();
