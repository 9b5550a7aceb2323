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

  it('prints the sheet it parsed as it was, strings and escapes included (comments aside)', () => {
    const css =
      '/*! banner */@layer a;.q::after{content:"}{;"}.r\\{{color:red}@supports (x:y){@media print{.s{margin:0}}}';
    expect(printSheet(parseSheet(css))).toBe(css.replace('/*! banner */', ''));
  });
});
