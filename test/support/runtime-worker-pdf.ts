/**
 * Worker entry for the workerd PDF test: answers a certificate PDF for a learner whose name is Greek and Cyrillic,
 * so the test can check that the emulator's bundled DejaVu fonts loaded inside workerd.
 */
import { certificatePdf } from '../../emulator/pdf.ts';
import type { Transcript, User } from '../../emulator/types.ts';

const learner: User = {
  uuid: '11111111-2222-4333-8444-555555555555', partnerId: 'partner-1', email: 'zoe@example.com', firstName: 'Ζωή',
  lastName: 'Достоевская', organizationId: 1, countryCode: null, address: null, address2: null, city: null,
  stateProv: null, postalCode: null, phone: null, status: 'active', createdAt: 0, updatedAt: 0,
};

const course: Transcript = {
  id: 7, learnerUuid: learner.uuid, isCourse: true, courseId: 2, moduleId: null, title: 'Data Protection Fundamentals',
  completionDate: 0, score: 91, certificateAvailable: true, createdAt: 0, updatedAt: 0,
};

export default {
  /** @returns the certificate PDF. */
  async fetch(): Promise<Response> {
    const pdf = await certificatePdf(learner, course, Date.UTC(2026, 0, 1));
    return new Response(pdf as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/pdf' } });
  },
};
