// What a MooTools 1.x-era page does to the built-ins before the widget loads (written for this demo,
// not MooTools' code), plus an enumerable property on Object.prototype as some old scripts add:
// Array.from replaced by one that wraps anything that is not an array (so Array.from('ab') is ['ab'] and
// an iterator becomes [iterator]); enumerable helpers on Array, String and Function prototypes.
(function () {
  function implement(target, methods) {
    for (var key in methods) target[key] = methods[key];
  }
  var slice = Array.prototype.slice;
  Array.from = function (item) {
    if (item == null) return [];
    if (Array.isArray(item)) return item;
    if (typeof item === 'object' && typeof item.length === 'number' && typeof item !== 'string') return slice.call(item);
    return [item];
  };
  implement(Array.prototype, {
    contains: function (item) {
      return this.indexOf(item) !== -1;
    },
    include: function (item) {
      if (this.indexOf(item) === -1) this.push(item);
      return this;
    },
    erase: function (item) {
      for (var i = this.length; i--; ) if (this[i] === item) this.splice(i, 1);
      return this;
    },
    clean: function () {
      return this.filter(function (item) {
        return item != null;
      });
    },
  });
  implement(String.prototype, {
    contains: function (text) {
      return this.indexOf(text) > -1;
    },
    camelCase: function () {
      return this.replace(/-\D/g, function (match) {
        return match.charAt(1).toUpperCase();
      });
    },
  });
  implement(Function.prototype, {
    extend: function (key, value) {
      this[key] = value;
      return this;
    },
    implement: function (key, value) {
      this.prototype[key] = value;
      return this;
    },
    pass: function (args, bind) {
      var self = this;
      return function () {
        return self.apply(bind, args);
      };
    },
  });
  // enumerable, inherited by every object: shows up in each for-in loop of the page
  Object.prototype.legacyTag = 'mootools-era';
  window.LEGACY_LIBRARY = 'mootools-era';
})();
