// What a page with old polyfills does before the widget loads (written for this demo): a non-native
// Promise in place of the browser's (then, catch, resolve, reject, all, race, as ES6-era polyfills had,
// with no finally or allSettled), a fetch wrapper that logs every request and answers with that Promise,
// Object.assign that copies inherited enumerable properties too, and Array.from for array-likes only
// (an iterable such as a Set or a Map's entries becomes []).
(function () {
  var PENDING = 0;
  var FULFILLED = 1;
  var REJECTED = 2;
  function LegacyPromise(executor) {
    var self = this;
    self._state = PENDING;
    self._handlers = [];
    function settle(state, value) {
      if (self._state !== PENDING) return;
      if (state === FULFILLED && value && (typeof value === 'object' || typeof value === 'function')) {
        var then;
        try {
          then = value.then;
        } catch (error) {
          return settle(REJECTED, error);
        }
        if (typeof then === 'function') {
          var called = false;
          try {
            then.call(
              value,
              function (v) {
                if (!called) (called = true), settle(FULFILLED, v);
              },
              function (e) {
                if (!called) (called = true), settle(REJECTED, e);
              },
            );
          } catch (error) {
            if (!called) settle(REJECTED, error);
          }
          return;
        }
      }
      self._state = state;
      self._value = value;
      setTimeout(function () {
        self._handlers.splice(0).forEach(function (handle) {
          handle();
        });
      }, 0);
    }
    self._settle = settle;
    try {
      executor(
        function (value) {
          settle(FULFILLED, value);
        },
        function (reason) {
          settle(REJECTED, reason);
        },
      );
    } catch (error) {
      settle(REJECTED, error);
    }
  }
  LegacyPromise.prototype.then = function (onFulfilled, onRejected) {
    var self = this;
    return new LegacyPromise(function (resolve, reject) {
      function handle() {
        var callback = self._state === FULFILLED ? onFulfilled : onRejected;
        if (typeof callback !== 'function') return (self._state === FULFILLED ? resolve : reject)(self._value);
        try {
          resolve(callback(self._value));
        } catch (error) {
          reject(error);
        }
      }
      if (self._state === PENDING) self._handlers.push(handle);
      else setTimeout(handle, 0);
    });
  };
  LegacyPromise.prototype['catch'] = function (onRejected) {
    return this.then(undefined, onRejected);
  };
  LegacyPromise.resolve = function (value) {
    return value instanceof LegacyPromise
      ? value
      : new LegacyPromise(function (resolve) {
          resolve(value);
        });
  };
  LegacyPromise.reject = function (reason) {
    return new LegacyPromise(function (resolve, reject) {
      reject(reason);
    });
  };
  LegacyPromise.all = function (list) {
    return new LegacyPromise(function (resolve, reject) {
      var results = [];
      var left = list.length;
      if (!left) return resolve(results);
      list.forEach(function (item, i) {
        LegacyPromise.resolve(item).then(function (value) {
          results[i] = value;
          if (--left === 0) resolve(results);
        }, reject);
      });
    });
  };
  LegacyPromise.race = function (list) {
    return new LegacyPromise(function (resolve, reject) {
      list.forEach(function (item) {
        LegacyPromise.resolve(item).then(resolve, reject);
      });
    });
  };
  window.Promise = LegacyPromise;

  var nativeFetch = window.fetch;
  window.fetchLog = [];
  window.fetch = function (input) {
    window.fetchLog.push(typeof input === 'string' ? input : input.url);
    var args = arguments;
    var self = this;
    return new LegacyPromise(function (resolve, reject) {
      nativeFetch.apply(self, args).then(resolve, reject);
    });
  };

  Object.assign = function (target) {
    for (var i = 1; i < arguments.length; i++) {
      var source = arguments[i];
      if (source != null) for (var key in source) target[key] = source[key];
    }
    return target;
  };
  Array.from = function (arrayLike) {
    var result = [];
    if (arrayLike == null) return result;
    for (var i = 0; i < arrayLike.length; i++) result.push(arrayLike[i]);
    return result;
  };
  window.LEGACY_LIBRARY = 'polyfills';
})();
