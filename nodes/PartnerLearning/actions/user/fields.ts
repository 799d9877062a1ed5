/**
 * The optional profile fields of a learner (register's Additional Fields, update's Update Fields).
 */
import type { INodeProperties } from 'n8n-workflow';

/** Writable profile fields besides e-mail, names and organization. */
export const profileFields: INodeProperties[] = [
  { displayName: 'Address', name: 'address', type: 'string', default: '' },
  { displayName: 'Address Line 2', name: 'address2', type: 'string', default: '' },
  { displayName: 'City', name: 'city', type: 'string', default: '' },
  {
    displayName: 'Country Code',
    name: 'countryCode',
    type: 'string',
    default: '',
    placeholder: 'e.g. DE',
    description: 'ISO 3166-1 alpha-2, two capital letters',
  },
  { displayName: 'Phone', name: 'phone', type: 'string', default: '' },
  { displayName: 'Postal Code', name: 'postalCode', type: 'string', default: '' },
  { displayName: 'State or Province', name: 'stateProv', type: 'string', default: '' },
];

/**
 * Drops empty strings n8n leaves for fields the user added and left blank (the core checks the rest).
 *
 * @param fields The collection's value.
 * @returns Only the fields with a value.
 */
export function filled<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '' && value !== undefined)) as Partial<T>;
}
