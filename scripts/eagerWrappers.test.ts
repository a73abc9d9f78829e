// The build step that writes the bundler's CommonJS wrappers as parenthesized functions (vite.config.ts).
import { describe, expect, it } from 'vitest';
import { eagerCommonJsWrappers } from '../vite.config.ts';

const HELPER = 'var e=(e,t)=>()=>(t||(e((t={exports:{}}).exports,t,t.exports),e=null),t.exports)';

describe('eagerCommonJsWrappers', () => {
  it('writes each wrapper as a parenthesized function, which behaves the same', () => {
    const code = `${HELPER},a=e(((e,t)=>{t.exports=41})),b=e((e=>{e.x=a()+1})),result=b().x;`;
    const eager = eagerCommonJsWrappers(code);
    expect(eager).toContain('a=e((function(e,t){t.exports=41}))');
    expect(eager).toContain('b=e((function(e){e.x=a()+1}))');
    expect(new Function(`${eager}return result`)()).toBe(42);
    expect(new Function(`${code}return result`)()).toBe(42);
  });

  it('leaves a call of another function of the same name alone', () => {
    const code = `${HELPER};function f(e){return e((x=>{return x}))}var a=e(((e,t)=>{t.exports=f}));`;
    const eager = eagerCommonJsWrappers(code);
    expect(eager).toContain('function f(e){return e((x=>{return x}))}');
    expect(eager).toContain('a=e((function(e,t){t.exports=f}))');
  });

  it('refuses a wrapper that reads this or arguments, and a bundle without the helper', () => {
    expect(() => eagerCommonJsWrappers(`${HELPER},a=e(((e,t)=>{t.exports=this}));`)).toThrow(/this or arguments/);
    expect(() => eagerCommonJsWrappers('var a=1;')).toThrow(/helper was not found/);
  });
});
