import { describe, expect, it } from 'vitest';
import { emailSchema } from '../core/validation/schemas.ts';
import { testBed } from '../test/support/emulator-testbed.ts';
import { EMAIL_PATTERN } from './user-input.ts';

/** What the client refuses must be refused by the emulator too, so partners meet the refusal in their tests. */
const refused = [
  'ada\u0000@example.com',
  'ada@example.com\u0000',
  'ada\u0007@example.com',
  'ada\n@example.com',
  ' ada@example.com',
  'ada@example.com ',
  '<script>alert(1)</script>@example.com',
  'ada@<script>.com',
  '"ada"@example.com',
  '.ada@example.com',
  'ada..lovelace@example.com',
  'ada@example',
  'ada@-example.com',
  'ada@exa_mple.com',
  'adä@example.com',
  'ada@@example.com',
];
const accepted = ['ada@example.com', 'ada.lovelace+tag@mail.example.co.uk', "o'brien@example.ie", 'a_b-c@x-y.example.org', 'A1@EXAMPLE.COM'];

describe('e-mail validation matches the client', () => {
  it('agrees with the client schema on every sample', () => {
    for (const email of [...refused, ...accepted]) {
      expect(EMAIL_PATTERN.test(email), JSON.stringify(email)).toBe(emailSchema.safeParse(email).success);
    }
    expect(refused.every((e) => !EMAIL_PATTERN.test(e))).toBe(true);
    expect(accepted.every((e) => EMAIL_PATTERN.test(e))).toBe(true);
  });

  it('registration and PATCH answer the service violation shape for NUL, control characters and <script>', async () => {
    const t = testBed();
    const user = await t.register('ok@example.com');
    for (const email of ['bad\u0000@example.com', 'bad\u001b@example.com', '<script>x</script>@example.com', ' spaced@example.com']) {
      const register = await t.api('/users/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, firstName: 'Ada', lastName: 'Lovelace', organizationId: 1 }),
      });
      expect(register.status, JSON.stringify(email)).toBe(400);
      expect(await register.json()).toEqual({ error: 'validation_failed', violations: [{ propertyPath: 'email', message: 'This value is not a valid email address.' }] });
      const patch = await t.api(`/users/${user.uuid}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ email }) });
      expect(patch.status, JSON.stringify(email)).toBe(400);
      expect(await patch.json()).toEqual({ error: 'validation_failed', violations: [{ propertyPath: 'email', message: 'This value is not a valid email address.' }] });
    }
    const after = (await (await t.api(`/users/${user.uuid}`)).json()) as { email: string };
    expect(after.email).toBe('ok@example.com');
  });
});
