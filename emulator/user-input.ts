import { isCountryCode } from './countries.ts';
import type { Violation } from './hydra.ts';
import type { Catalog, Profile } from './types.ts';

const REQUIRED = ['email', 'firstName', 'lastName', 'organizationId'] as const;
const OPTIONAL_TEXT = ['address', 'address2', 'city', 'stateProv', 'postalCode', 'phone'] as const;
/** Read-only or JSON-LD keys a client may echo back; ignored, as API Platform does. */
const IGNORED = new Set(['uuid', 'createdAt', 'updatedAt', '@id', '@type', '@context']);
/**
 * The client's e-mail rule (`z.email()`, zod's default pattern), so the emulator refuses what the client refuses:
 * control characters, NUL, spaces, `<script>`, quotes other than `'`, a leading or doubled dot. Copied rather than
 * imported so the emulator carries no zod; `user-input.test.ts` checks that both agree.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Validated input: the fields to set, or the violations. */
export type ProfileInput = { values: Partial<Profile> } | { violations: Violation[] };

/**
 * Validates a registration body: email, firstName, lastName, organizationId required; the optional profile
 * fields may be given; `status` may only be `active` (a new user starts active); other fields are violations.
 * @param body the parsed JSON (must be an object; the caller checks).
 * @param catalog for organization ids.
 * @returns the values or the violations.
 */
export function validateRegistration(body: Record<string, unknown>, catalog: Catalog): ProfileInput {
  const violations: Violation[] = [];
  const blank = new Set<string>();
  for (const field of REQUIRED) {
    const v = body[field];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      violations.push({ propertyPath: field, message: 'This value should not be blank.' });
      blank.add(field);
    }
  }
  // A client may send the whole profile, status included: `active` is what a new user gets anyway, so it is
  // accepted; anything else would contradict the state table (registration -> active).
  if ('status' in body && body.status !== 'active') {
    violations.push({ propertyPath: 'status', message: 'A new user is active: status can only be "active" at registration.' });
  }
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'status' && !blank.has(k)));
  const checked = validateFields(rest, catalog);
  const all = [...violations, ...('violations' in checked ? checked.violations : [])];
  return all.length > 0 ? { violations: all } : checked;
}

/**
 * Validates a merge-patch body: any profile field; null clears an optional field; required fields cannot be null.
 * @param body the parsed JSON object.
 * @param catalog for organization ids.
 * @returns the values or the violations.
 */
export function validatePatch(body: Record<string, unknown>, catalog: Catalog): ProfileInput {
  return validateFields(body, catalog);
}

function validateFields(body: Record<string, unknown>, catalog: Catalog): ProfileInput {
  const violations: Violation[] = [];
  const values: Partial<Record<keyof Profile, unknown>> = {};
  const bad = (propertyPath: string, message: string) => violations.push({ propertyPath, message });
  for (const [field, value] of Object.entries(body)) {
    if (IGNORED.has(field)) continue;
    if ((REQUIRED as readonly string[]).includes(field) || field === 'status') {
      if (value === null) {
        bad(field, 'This value should not be null.');
        continue;
      }
    }
    switch (field) {
      case 'email':
        if (typeof value !== 'string') bad(field, 'This value should be of type string.');
        // Tested as sent, not trimmed: the client refuses surrounding spaces too.
        else if (value.length > 180 || !EMAIL_PATTERN.test(value)) bad(field, 'This value is not a valid email address.');
        else values.email = value;
        break;
      case 'firstName':
      case 'lastName':
        if (typeof value !== 'string') bad(field, 'This value should be of type string.');
        else if (value.trim() === '') bad(field, 'This value should not be blank.');
        else if (value.length > 100) bad(field, 'This value is too long. It should have 100 characters or less.');
        else values[field] = value.trim();
        break;
      case 'organizationId':
        if (typeof value !== 'number' || !Number.isInteger(value)) bad(field, 'This value should be of type int.');
        else if (!catalog.organizations.some((o) => o.id === value)) bad(field, `Organization ${value} does not exist.`);
        else values.organizationId = value;
        break;
      case 'countryCode':
        if (value === null) values.countryCode = null;
        else if (typeof value !== 'string') bad(field, 'This value should be of type string.');
        else if (!isCountryCode(value)) bad(field, 'This value is not a valid country (ISO 3166-1 alpha-2, e.g. "DE").');
        else values.countryCode = value;
        break;
      case 'status':
        if (value !== 'active' && value !== 'inactive') bad(field, 'The value you selected is not a valid choice (active, inactive).');
        else values.status = value;
        break;
      default:
        if ((OPTIONAL_TEXT as readonly string[]).includes(field)) {
          if (value === null) values[field as keyof Profile] = null;
          else if (typeof value !== 'string') bad(field, 'This value should be of type string.');
          else if (value.length > 255) bad(field, 'This value is too long. It should have 255 characters or less.');
          else values[field as keyof Profile] = value;
        } else {
          bad(field, 'This field was not expected.');
        }
    }
  }
  return violations.length > 0 ? { violations } : { values: values as Partial<Profile> };
}
