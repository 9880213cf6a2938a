/**
 * The channel form's model, from the service's real schemas: each property gets the input its
 * shape needs, and values go back as the config patch the API expects (blank secrets kept on
 * edit, removed ones and blank optional fields cleared with null).
 */
import { channelTypes } from '@server/modules/notification-channels/channel-types';
import { describe, expect, it } from 'vitest';
import { configPatch, fieldsOf, initialValues } from '../../../src/pages/channels/channel-fields';

const info = (type: string) => {
  const found = channelTypes().types.find((x) => x.type === type);
  if (!found) throw new Error(type);
  return found;
};

describe('channel form fields', () => {
  it('picks an input per property shape', () => {
    const kinds = Object.fromEntries(fieldsOf(info('webhook')).map((f) => [f.name, f.kind]));
    expect(kinds).toEqual({ url: 'text', method: 'select', body_format: 'select', body_template: 'textarea', headers: 'headers', secret: 'password' });
    const email = Object.fromEntries(fieldsOf(info('email')).map((f) => [f.name, [f.kind, f.required]]));
    expect(email).toMatchObject({ host: ['text', true], port: ['number', true], to: ['list', true], password: ['password', false], username: ['text', false] });
    expect(fieldsOf(info('email')).find((f) => f.name === 'security')?.options).toEqual(['tls', 'starttls', 'none']);
  });

  it('starts from the stored config with secrets blank and required choices preset', () => {
    const fields = fieldsOf(info('webhook'));
    expect(initialValues(fields, undefined)).toMatchObject({ method: 'POST', body_format: 'json', secret: '', headers: '' });
    const stored = initialValues(fields, { url: 'https://x.example/h', method: 'PUT', body_format: 'form', headers: { 'X-A': '1' }, secret: '********' });
    expect(stored).toMatchObject({ url: 'https://x.example/h', method: 'PUT', headers: 'X-A: 1', secret: '' });
  });

  it('sends blanks as absent on create, as null on edit, and keeps a blank secret on edit', () => {
    const fields = fieldsOf(info('webhook'));
    const values = { url: ' https://x.example/h ', method: 'POST', body_format: 'json', body_template: '', headers: 'X-A: 1\nbad line\nX-B:  two ', secret: '' };
    expect(configPatch(fields, values, false)).toEqual({ url: 'https://x.example/h', method: 'POST', body_format: 'json', headers: { 'X-A': '1', 'X-B': 'two' } });
    expect(configPatch(fields, { ...values, headers: '' }, true)).toEqual({ url: 'https://x.example/h', method: 'POST', body_format: 'json', body_template: null, headers: null });
    expect(configPatch(fields, { ...values, secret: null }, true)).toMatchObject({ secret: null });
    expect(configPatch(fields, { ...values, secret: 'new-secret' }, true)).toMatchObject({ secret: 'new-secret' });
  });
});
