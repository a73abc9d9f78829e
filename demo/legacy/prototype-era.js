// What a Prototype.js 1.6-era page does to the built-ins before the widget loads (written for this
// demo, not Prototype's code): toJSON on arrays and strings, so that JSON.stringify turns an array into
// a string; enumerable helpers assigned onto Array, String and Function prototypes; a non-native
// Function.prototype.bind; Object.keys replaced by a for-in loop that also lists inherited properties.
(function () {
  function extend(target, source) {
    for (var key in source) target[key] = source[key]; // plain assignment: enumerable, as Object.extend made them
    return target;
  }
  extend(Array.prototype, {
    each: function (iterator) {
      for (var i = 0; i < this.length; i++) iterator(this[i], i);
      return this;
    },
    first: function () {
      return this[0];
    },
    last: function () {
      return this[this.length - 1];
    },
    compact: function () {
      return this.filter(function (value) {
        return value != null;
      });
    },
    without: function (value) {
      return this.filter(function (item) {
        return item !== value;
      });
    },
    // Prototype 1.6: the array's JSON text, which JSON.stringify then writes as one string
    toJSON: function () {
      var parts = [];
      for (var i = 0; i < this.length; i++) parts.push(JSON.stringify(this[i]));
      return '[' + parts.join(', ') + ']';
    },
  });
  extend(String.prototype, {
    strip: function () {
      return this.replace(/^\s+/, '').replace(/\s+$/, '');
    },
    camelize: function () {
      return this.replace(/-+(.)?/g, function (match, chr) {
        return chr ? chr.toUpperCase() : '';
      });
    },
    toJSON: function () {
      return JSON.stringify(String(this));
    },
  });
  extend(Function.prototype, {
    // Prototype 1.6 replaced the native bind with this one
    bind: function (context) {
      var method = this;
      var bound = Array.prototype.slice.call(arguments, 1);
      return function () {
        return method.apply(context, bound.concat(Array.prototype.slice.call(arguments)));
      };
    },
    defer: function () {
      var method = this;
      var args = Array.prototype.slice.call(arguments);
      return setTimeout(function () {
        method.apply(method, args);
      }, 10);
    },
  });
  Object.keys = function (object) {
    var keys = [];
    for (var key in object) keys.push(key);
    return keys;
  };
  window.LEGACY_LIBRARY = 'prototype-era';
})();
