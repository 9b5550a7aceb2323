import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuFormsIn, tuTexts } from '../../tests/support/spanish-register';
import es from './messages/es.json';

// The portal addresses the person as usted everywhere it speaks Spanish: the catalogue, each tenant's Spanish
// overrides and terms of use. A text in tú among them reads as a different voice (tests/support/spanish-register.ts).
const root = join(__dirname, '..', '..');
const tenantsDir = join(root, 'public', 'tenants');
const tenants = readdirSync(tenantsDir).filter((name) => existsSync(join(tenantsDir, name, 'settings.json')));

describe('the Spanish register', () => {
  it('is usted in every text of es.json', () => {
    expect(tuTexts('es.json', es)).toEqual([]);
  });

  it('is usted in every tenant Spanish override and terms of use', () => {
    expect(tenants).toEqual(expect.arrayContaining(['demo', 'gambling']));
    const found = tenants.flatMap((tenant) => {
      const overrides = join(tenantsDir, tenant, 'locales', 'es.json');
      const terms = join(tenantsDir, tenant, 'tos-es.md');
      return [
        ...(existsSync(overrides)
          ? tuTexts(`tenants/${tenant}/locales/es.json`, JSON.parse(readFileSync(overrides, 'utf8')))
          : []),
        ...(existsSync(terms)
          ? tuTexts(`tenants/${tenant}`, { 'tos-es.md': readFileSync(terms, 'utf8') })
          : []),
      ];
    });
    expect(found).toEqual([]);
  });

  it('tells tú from usted, and a description from a command', () => {
    expect(tuFormsIn('No tienes ninguna acreditación. Inténtalo de nuevo.')).toEqual(['tienes', 'Inténtalo']);
    expect(tuFormsIn('Tu credencial QR ha caducado: vuelve a pedirla.')).toEqual(['Tu', 'vuelve a']);
    expect(tuFormsIn('Elige un lugar')).toEqual(['Elige']);
    expect(tuFormsIn('Para confirmar, escribe su documento.')).toEqual(['escribe']);
    expect(tuFormsIn('Regístrate y acércate a la cámara.')).toEqual(['Regístrate', 'acércate']);
    expect(tuTexts('es.json', { 'home.qr.heading': 'Tu credencial QR' })).toEqual([
      'es.json key home.qr.heading uses tú: «Tu» in «Tu credencial QR»',
    ]);
    for (const usted of [
      'No tiene ninguna acreditación. Inténtelo de nuevo.',
      'Su credencial QR ha caducado: vuelva a pedirla.',
      'Un visitante ha pedido visitarle. ¿Acepta la visita?',
      'Si vuelve a entrar, empezará un alta nueva.',
      '«{metadata}» sigue elegido: Reintentar lo vuelve a enviar.',
      'Borra sus datos. No se puede deshacer.',
      'Activa',
      'Actualizar el estado de la tutela',
      'Para confirmar, escriba su documento.',
      'Regístrese y acérquese a la cámara; se verifica automáticamente con un intérprete.',
      'El siguiente paso es diferente; después, el sistema revisa la foto.',
    ]) {
      expect(tuFormsIn(usted)).toEqual([]);
    }
  });
});
