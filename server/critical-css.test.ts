import { describe, expect, it } from 'vitest';
import { classesOf, criticalCss, parseSheet, printSheet } from './critical-css';

const page = (classes: string) => `<div class="${classes}">x</div>`;

describe('the rules a painted page inlines', () => {
  it('keeps the rules whose classes the markup holds, selector by selector, and drops the others', () => {
    const css = '.a{color:red}.b{color:blue}.a .c,.a .d{margin:0}.e,.a{padding:0}';
    expect(criticalCss(css, page('a d'))).toBe('.a{color:red}.a .d{margin:0}.a{padding:0}');
  });

  it('reads escaped class names as Tailwind writes them', () => {
    const css =
      '.sm\\:flex{display:flex}.\\32 xl\\:p-2{padding:2px}.w-1\\/2{width:50%}.hover\\:x:hover{color:red}';
    expect(criticalCss(css, page('sm:flex 2xl:p-2 w-1/2'))).toBe(
      '.sm\\:flex{display:flex}.\\32 xl\\:p-2{padding:2px}.w-1\\/2{width:50%}',
    );
    expect(classesOf('<p class="a&amp;b  c"></p><svg class="d"></svg>')).toEqual(new Set(['a&b', 'c', 'd']));
  });

  it('needs no class named inside :not(), and needs the group of a group variant', () => {
    const css =
      '.x:not(.y){color:red}.group-hover\\:z:is(:where(.group):hover *){color:blue}.space>:not(:last-child){margin:0}';
    expect(criticalCss(css, page('x group-hover:z space'))).toBe(
      '.x:not(.y){color:red}.space>:not(:last-child){margin:0}',
    );
    expect(criticalCss(css, page('group group-hover:z'))).toBe(
      '.group-hover\\:z:is(:where(.group):hover *){color:blue}',
    );
  });

  it('keeps element rules and layer statements, and drops the blocks it empties', () => {
    const css =
      '@layer theme,base,utilities;@layer base{*,:before{box-sizing:border-box}button{cursor:pointer}}' +
      '@layer utilities{.a{color:red}@media (width>=40rem){.sm\\:b{display:none}}}@media print{body .c{color:#000}}';
    expect(criticalCss(css, page('a'))).toBe(
      '@layer theme,base,utilities;@layer base{*,:before{box-sizing:border-box}button{cursor:pointer}}' +
        '@layer utilities{.a{color:red}}',
    );
  });

  it('keeps the custom properties, @property rules and keyframes that what it keeps reads', () => {
    const css =
      ':root,:host{--spacing:.25rem;--color-red:red;--font:var(--default-font);--default-font:serif;--unused:1px}' +
      '*,:before{--tw-shadow:0 0 #0000;--tw-ring:0 0 #0000}' +
      'html{font-family:var(--font)}.p-2{padding:calc(var(--spacing)*2)}.shadow{box-shadow:var(--tw-shadow)}' +
      '.animate-spin{animation:spin 1s linear infinite}' +
      '@property --tw-shadow{syntax:"*";inherits:false}@property --tw-ring{syntax:"*";inherits:false}' +
      '@keyframes spin{to{transform:rotate(360deg)}}@keyframes pulse{50%{opacity:.5}}';
    const kept = criticalCss(css, `${page('p-2 shadow')}<i style="color:var(--color-red)"></i>`);
    expect(kept).toBe(
      ':root,:host{--spacing:.25rem;--color-red:red;--font:var(--default-font);--default-font:serif}' +
        '*,:before{--tw-shadow:0 0 #0000}' +
        'html{font-family:var(--font)}.p-2{padding:calc(var(--spacing)*2)}.shadow{box-shadow:var(--tw-shadow)}' +
        '@property --tw-shadow{syntax:"*";inherits:false}',
    );
    expect(criticalCss(css, page('animate-spin'))).toContain('@keyframes spin{');
    expect(criticalCss(css, page('animate-spin'))).not.toContain('pulse');
  });

  it('keeps the place of a layer it empties, so the whole sheet coming later orders the layers as before', () => {
    const css =
      '@layer properties{@supports (x:y){*{--tw-a:0}}}@layer utilities{.a{color:red}.b{color:var(--tw-a)}}';
    expect(criticalCss(css, page('a'))).toBe('@layer properties;@layer utilities{.a{color:red}}');
  });

  it('needs no class named in an attribute value, a string or one branch of :is()/:where(), and reads any entity', () => {
    const css =
      'a[href$=".pdf"]{color:red}.x[data-k=".y"]{color:blue}.icon::after{content:".z"}:is(.m,.n) .o{margin:0}' +
      ':where(.p) .q{padding:0}';
    expect(criticalCss(css, page('x icon n o q'))).toBe(
      'a[href$=".pdf"]{color:red}.x[data-k=".y"]{color:blue}.icon::after{content:".z"}:is(.m,.n) .o{margin:0}',
    );
    // Brackets and quotes escaped in a class name are the name's (Tailwind's arbitrary variants and values).
    const arbitrary = ".\\[\\&_svg\\]\\:size-5 svg{width:20px}.content-\\[\\'x\\'\\]{content:'x'}";
    expect(criticalCss(arbitrary, page("[&amp;_svg]:size-5 content-['x']"))).toBe(arbitrary);
    expect(criticalCss(arbitrary, page('size-5'))).toBe('');
    expect(classesOf('<p class="it&#x27;s a&#39;b &lt;c&gt; &nbsp;"></p>')).toEqual(
      new Set(["it's", "a'b", '<c>', '&nbsp;']),
    );
  });

  it('keeps keyframes named by a theme property only when something kept reads that property', () => {
    const css =
      ':root{--animate-spin:spin 1s linear infinite}.animate-spin{animation:var(--animate-spin)}' +
      '.blink{animation:blink!important}@keyframes spin{to{rotate:1turn}}@keyframes blink{50%{opacity:0}}';
    expect(criticalCss(css, page('x'))).toBe('');
    expect(criticalCss(css, page('animate-spin'))).toBe(
      ':root{--animate-spin:spin 1s linear infinite}.animate-spin{animation:var(--animate-spin)}' +
        '@keyframes spin{to{rotate:1turn}}',
    );
    expect(criticalCss(css, page('blink'))).toBe(
      '.blink{animation:blink!important}@keyframes blink{50%{opacity:0}}',
    );
  });

  it('prints the sheet it parsed as it was, strings and escapes included (comments aside)', () => {
    const css =
      '/*! banner */@layer a;.q::after{content:"}{;"}.r\\{{color:red}@supports (x:y){@media print{.s{margin:0}}}';
    expect(printSheet(parseSheet(css))).toBe(css.replace('/*! banner */', ''));
  });
});
