/* global document, window, HTMLVideoElement, HTMLAnchorElement, HTMLIFrameElement */
// The demo partner page. It holds only a short-lived learner token from its own backend (/api/session) and calls
// the edge relay with it; the relay sets X-User-ID from the token. Content URLs are used at once and never stored.

const $ = (id) => document.getElementById(id);
const session = { token: '', expiresAt: 0, relay: '' };
const player = { moduleId: 0, content: null, refreshes: 0, timer: 0, skewMs: 0, skewAt: 0 };
let completedModules = new Set();
let openCourseId = 0;

function say(text) {
  $('status').textContent = text;
  // Progress reported means the last action worked: an older error no longer applies.
  $('error').hidden = true;
}

function fail(error) {
  $('error').textContent = error instanceof Error ? error.message : String(error);
  $('error').hidden = false;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const child of children) node.append(child);
  return node;
}

let pending = null;
function newSession() {
  // One sign-in at a time, however many calls find the token missing or old.
  pending ??= signIn().finally(() => {
    pending = null;
  });
  return pending;
}

async function signIn() {
  const res = await fetch('/api/session', { method: 'POST' });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.detail || `Signing in failed (${res.status})`);
  Object.assign(session, { token: body.token, expiresAt: Date.parse(body.expiresAt), relay: body.relay });
}

/** Calls the relay as the learner; renews the learner token a minute before it expires, and once after a 401. */
async function relay(path, init = {}) {
  if (!session.token || session.expiresAt - Date.now() < 60_000) await newSession();
  const send = () => fetch(`${session.relay}/v1${path}`, { ...init, headers: { authorization: `Bearer ${session.token}`, accept: 'application/ld+json, application/json, application/pdf' } });
  let res = await send();
  if (res.status === 401) {
    await newSession();
    res = await send();
  }
  if (!res.ok) {
    const problem = await res.json().catch(() => ({}));
    throw new Error(problem.detail || problem.title || `${init.method || 'GET'} ${path} answered ${res.status}`);
  }
  return res;
}

const json = async (path, init) => (await relay(path, init)).json();
const members = (page) => page['hydra:member'] ?? page.member ?? [];
const day = (iso) => (iso ? iso.slice(0, 10) : '');
const minutes = (s) => (s ? `${Math.max(1, Math.round(s / 60))} min` : '');

async function loadLearner() {
  const me = await json('/me');
  $('learner').textContent = `Signed in as ${me.firstName} ${me.lastName}`;
}

async function loadCatalog() {
  const list = $('catalog');
  const courses = members(await json('/courses?itemsPerPage=100'));
  list.replaceChildren(...courses.map((course) => {
    const open = el('button', { type: 'button', textContent: 'Open course' });
    open.setAttribute('aria-label', `Open course ${course.title}`);
    open.addEventListener('click', () => openCourse(course.id).catch(fail));
    return el('li', {}, el('h2', { textContent: course.title }), el('p', { textContent: course.description ?? '' }), open);
  }));
  list.setAttribute('aria-busy', 'false');
}

async function loadProgress() {
  const records = members(await json('/course-progresses?itemsPerPage=100'));
  $('progress').replaceChildren(...(records.length ? records.map((p) => {
    const bar = el('progress', { max: 100, value: p.completionPercent ?? 0 });
    bar.setAttribute('aria-label', `Progress in ${p.courseTitle ?? `course ${p.courseId}`}`);
    return el('li', {}, el('span', { className: 'title', textContent: p.courseTitle ?? `Course ${p.courseId}` }), bar, el('span', { textContent: `${p.completionPercent ?? 0}% · ${p.status.replace('_', ' ')}` }));
  }) : [el('li', { textContent: 'Open a module to start a course.' })]));
  const current = records.find((p) => p.courseId === openCourseId);
  $('course-progress').value = current?.completionPercent ?? 0;
  $('course-progress-text').textContent = current ? `${current.completionPercent}% · ${current.status.replace('_', ' ')}` : 'Not started';
}

async function download(path, name) {
  const blob = await (await relay(path)).blob();
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  say(`Downloaded ${name}.`);
}

async function loadTranscripts() {
  const records = members(await json('/transcripts?itemsPerPage=100'));
  completedModules = new Set(records.filter((t) => !t.isCourse).map((t) => t.moduleId));
  $('transcripts').tBodies[0].replaceChildren(...(records.length ? records.map((t) => {
    const cell = el('td');
    if (t.certificateAvailable) {
      const button = el('button', { type: 'button', className: 'secondary', textContent: 'Download certificate' });
      button.setAttribute('aria-label', `Download certificate for ${t.title}`);
      button.addEventListener('click', () => download(`/transcripts/${t.id}/certificate/pdf`, `certificate-${t.id}.pdf`).catch(fail));
      cell.append(button);
    }
    const cells = [el('td', { textContent: day(t.completionDate) }), el('td', { textContent: t.title }), el('td', { textContent: t.isCourse ? 'Course' : 'Module' }), el('td', { textContent: t.score ?? '–' }), cell];
    ['Completed', 'Title', 'Type', 'Score', 'Certificate'].forEach((label, i) => cells[i].setAttribute('data-label', label));
    return el('tr', {}, ...cells);
  }) : [el('tr', {}, el('td', { colSpan: 5, textContent: 'Nothing completed yet.' }))]));
}

async function openCourse(id, focus = true) {
  const course = await json(`/courses/${id}`);
  openCourseId = course.id;
  $('course-heading').textContent = course.title;
  $('course-description').textContent = course.description ?? '';
  const modules = [...(course.modules ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  $('modules').replaceChildren(...modules.map((m) => {
    const open = el('button', { type: 'button', className: 'secondary', textContent: 'Open' });
    open.setAttribute('aria-label', `Open module ${m.title}`);
    open.addEventListener('click', () => openModule(m).catch(fail));
    const done = completedModules.has(m.id) ? [el('span', { className: 'done', textContent: '✓ Completed' })] : [];
    return el('li', {}, el('span', { className: 'title', textContent: m.title }), el('span', { className: 'badge', textContent: m.contentType }), el('span', { className: 'muted', textContent: minutes(m.durationSeconds) }), ...done, open);
  }));
  $('course').hidden = false;
  await loadProgress();
  if (focus) $('course-heading').focus();
}

/** The service's clock may differ from the browser's (the emulator's can be moved): ask the backend now and then. */
async function serviceNow() {
  if (Date.now() - player.skewAt > 10_000) {
    const res = await fetch('/api/service-time');
    if (res.ok) player.skewMs = Date.parse((await res.json()).now) - Date.now();
    player.skewAt = Date.now();
  }
  return Date.now() + player.skewMs;
}

function showContent(content, title, fresh) {
  const frame = $('player-frame');
  const url = content.content_url;
  // A new module gets a new element; a refreshed URL for the same module keeps the element (and a video's position).
  const current = fresh ? null : frame.querySelector('video, iframe, a');
  if (content.content_type === 'video') {
    if (current instanceof HTMLVideoElement) {
      const at = current.currentTime;
      current.src = url;
      current.currentTime = at;
    } else frame.replaceChildren(el('video', { controls: true, src: url, preload: 'metadata', title }));
  } else if (content.content_type === 'resource') {
    if (current instanceof HTMLAnchorElement) current.href = url;
    else frame.replaceChildren(el('a', { href: url, textContent: `Download ${title}`, rel: 'noopener' }));
  } else if (current instanceof HTMLIFrameElement) {
    current.src = url;
  } else {
    frame.replaceChildren(el('iframe', { title, src: url, className: content.content_type === 'document' ? 'document' : '' }));
  }
  frame.dataset.contentUrl = url;
  frame.dataset.refreshes = String(player.refreshes);
  const until = new Date(content.expires_at).toISOString().slice(11, 19);
  $('url-status').textContent = player.refreshes ? `Link refreshed (${player.refreshes}×); valid until ${until} UTC.` : `Signed link valid until ${until} UTC; it is renewed before it expires.`;
}

/** Keep-fresh: a minute before expires_at (on the service's clock), swap in a URL from refresh-url. */
async function keepFresh() {
  if (!player.content) return;
  const left = Date.parse(player.content.expires_at) - (await serviceNow());
  if (left >= 60_000) return;
  const moduleId = player.moduleId;
  const content = await json(`/modules/${moduleId}/refresh-url`);
  if (moduleId !== player.moduleId) return;
  player.content = content;
  player.refreshes += 1;
  showContent(content, $('player-heading').textContent, false);
  say('The content link was renewed before it expired.');
}

async function openModule(module) {
  const content = await json(`/modules/${module.id}/content`);
  Object.assign(player, { moduleId: module.id, content, refreshes: 0, skewAt: 0 });
  $('player-heading').textContent = module.title;
  $('player').hidden = false;
  showContent(content, module.title, true);
  const scorm = content.content_type === 'scorm';
  $('complete').hidden = scorm;
  $('scorm-note').hidden = !scorm;
  $('complete').disabled = completedModules.has(module.id);
  $('complete').textContent = completedModules.has(module.id) ? 'Completed' : 'Mark as complete';
  clearInterval(player.timer);
  player.timer = setInterval(() => keepFresh().catch(fail), 5_000);
  $('player-heading').focus();
  await loadProgress();
}

async function completeModule() {
  const id = player.moduleId;
  await relay(`/modules/${id}/complete`, { method: 'POST' });
  $('complete').disabled = true;
  $('complete').textContent = 'Completed';
  say('Module marked complete.');
  await loadTranscripts();
  await Promise.all([loadProgress(), openCourseId ? openCourse(openCourseId, false) : null]);
}

$('complete').addEventListener('click', () => completeModule().catch(fail));
$('transcript-pdf').addEventListener('click', () => download('/transcript/pdf', 'transcript.pdf').catch(fail));
window.addEventListener('focus', () => keepFresh().catch(fail));

say('Loading…');
Promise.all([loadLearner(), loadCatalog(), loadProgress(), loadTranscripts()])
  .then(() => say('Ready.'))
  .catch(fail);
