// conform's HTML report: draws the overview, each case's checks, sequence
// diagrams and plots from the JSON embedded in the page (#conform-data).
// Charts are Chart.js (inlined beside this script). The page reports its own
// health in #status: "ok" once everything rendered, "error: ..." otherwise.
'use strict';
(function () {
  const statusEl = document.getElementById('status');
  const problems = [];
  function fail(message) {
    problems.push(message);
    statusEl.textContent = 'error: ' + problems.join('; ');
    statusEl.dataset.state = 'error';
  }
  window.addEventListener('error', (e) => fail(e.message || String(e)));
  window.addEventListener('unhandledrejection', (e) => fail(String(e.reason)));
  document.addEventListener('securitypolicyviolation', (e) => fail('blocked ' + e.blockedURI));

  const SVG = 'http://www.w3.org/2000/svg';
  const FATE = ['delivered', 'lost', 'one-vantage', 'unmatched'];
  const STAGES = ['', 'Initial', 'Handshake', '1-RTT', 'HANDSHAKE_DONE'];
  // Above this many runs, a case's details are drawn when first opened.
  const EAGER_RUNS = 40;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const isFailure = (s) => ['FAIL', 'XPASS', 'ERROR', 'TIMEOUT', 'INTERRUPTED', 'NOT JUDGED'].includes(s);
  const cssName = (s) => s.toLowerCase().replace(/ /g, '-');
  // `conform check` judged captures made elsewhere: no plugin ran, no seed
  // was drawn, so the page names neither (docs/offline.md).
  const offline = () => Boolean(DATA.report.offline);
  const badge = (s) => el('span', { class: 'badge s-' + cssName(s) }, s);
  const seconds = (s) => (s < 10 ? s.toFixed(2) : s.toFixed(1)) + ' s';
  const msText = (ms) => (ms < 1000 ? ms.toFixed(3) + ' ms' : (ms / 1000).toFixed(4) + ' s');

  // ---- sequence diagram -------------------------------------------------

  // The page's strings, each once (run_view.hpp): a frame's description and
  // how many of its first characters the arrow's summary shows (0: all).
  let TEXT, LABEL;

  // A packet: [type, packet number or null, bytes, [frame...], [why, detail]
  // when it could not be decrypted].
  const heading = (p) => TEXT[p[0]] + (p[1] === null ? '' : ' ' + p[1]) + (p[4] ? ` (${TEXT[p[4][0]]})` : '');

  // "1-RTT 12: STREAM×3 ACK MAX_STREAMS uni=200 | ..." for the diagram's arrow:
  // frame names in order of first appearance, with counts.
  function packetSummary(packets) {
    return packets.map((p) => {
      if (!p[3].length) return heading(p);
      const names = new Map();
      for (const f of p[3]) {
        const name = LABEL[f] ? TEXT[f].slice(0, LABEL[f]) : TEXT[f];
        names.set(name, (names.get(name) || 0) + 1);
      }
      return heading(p) + ':' + [...names].map(([name, n]) => ' ' + name + (n > 1 ? '×' + n : '')).join('');
    }).join(' | ');
  }

  // Every frame of every packet, for the row's tooltip and detail line.
  const packetDetail = (packets) => packets.map((p) => [`${heading(p)} (${p[2]} B)`, ...p[3].map((f) => '  ' + TEXT[f]),
    ...(p[4] ? ['  ' + TEXT[p[4][1]]] : [])].join('\n')).join('\n');

  // The rows' columns (run_view.hpp) as rows: [ms, dir (0 C>S, 1 S>C), bytes,
  // fate, client frame, server frame (0: not in that capture), arrival ms,
  // packets].
  function diagramRows(c) {
    const rows = [];
    let us = 0, client = 0, server = 0;
    for (let i = 0; i < c.packets.length; ++i) {
      us += c.us[i];
      if (c.client_frame[i] !== null) client += c.client_frame[i];
      if (c.server_frame[i] !== null) server += c.server_frame[i];
      rows.push([us / 1000, c.dir[i], c.bytes[i], c.fate[i], c.client_frame[i] === null ? 0 : client,
        c.server_frame[i] === null ? 0 : server, c.arrival_us[i] === null ? null : (us + c.arrival_us[i]) / 1000,
        c.packets[i]]);
    }
    return rows;
  }

  // Only the rows in view are drawn, so a case of thousands of datagrams
  // scrolls as fast as one of ten.
  function SequenceDiagram(view, uid) {
    const rows = diagramRows(view.rows);
    const ROW = 24, WIDTH = 980, TIME_X = 4, CLIENT_X = 150, SERVER_X = 830, VIEW_H = 420;
    let selected = -1;
    const detail = el('pre', { class: 'seq-detail' }, 'Click an arrow (or a frame number in the evidence) to see its packets.');
    const spacer = el('div', { class: 'seq-spacer', style: `height:${rows.length * ROW}px` });
    const scroller = el('div', { class: 'seq-scroll', style: `max-height:${VIEW_H}px` }, spacer);
    const image = svg('svg', { width: WIDTH, class: 'seq-svg' });
    spacer.append(image);
    const capNames = view.captures;
    const head = el('div', { class: 'seq-head', style: `width:${WIDTH}px` },
      el('span', { style: `left:${CLIENT_X - 40}px` }, 'client' + (capNames.client ? ` (${capNames.client})` : '')),
      el('span', { style: `left:${SERVER_X - 60}px` }, 'server' + (capNames.server ? ` (${capNames.server})` : '')));
    const lostCount = rows.filter((r) => r[3] === 1).length;
    const legend = el('p', { class: 'seq-legend' },
      `${view.rows_total} datagrams` + (lostCount ? `, ${lostCount} lost (sent, never received: red, dashed)` : '') +
      '. Rows in time order; the time of sending on the left.');
    const root = el('div', { class: 'seq', id: uid + '-seq', 'data-rows': rows.length, 'data-lost': lostCount },
      legend, head, scroller, detail);

    function arrowHead(id, cls) {
      const m = svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
      m.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: cls }));
      return m;
    }

    function drawRow(i, y) {
      const r = rows[i];
      const g = svg('g', { class: 'row fate-' + FATE[r[3]] + (i === selected ? ' selected' : ''), 'data-index': i });
      g.append(svg('rect', { x: 0, y: y - ROW / 2, width: WIDTH, height: ROW, class: 'row-bg' }));
      g.append(svg('text', { x: TIME_X, y: y + 4, class: 'time' }, msText(r[0])));
      const from = r[1] === 0 ? CLIENT_X : SERVER_X, to = r[1] === 0 ? SERVER_X : CLIENT_X;
      const y1 = y - 5, y2 = y + 5;
      if (r[3] === 1) {
        const mid = (from + to) / 2;
        g.append(svg('line', { x1: from, y1, x2: mid, y2: y, class: 'arrow lost' }));
        g.append(svg('text', { x: mid - 5, y: y + 5, class: 'lost-mark' }, '✕'));
      } else if (r[3] === 3) {
        const mid = (from + to) / 2;
        g.append(svg('line', { x1: mid, y1: y, x2: to, y2, class: 'arrow unmatched', 'marker-end': `url(#${uid}-head)` }));
      } else {
        g.append(svg('line', { x1: from, y1, x2: to, y2, class: 'arrow', 'marker-end': `url(#${uid}-head)` }));
      }
      const line = packetSummary(r[7]);
      const label = line.length > 110 ? line.slice(0, 107) + '…' : line;
      g.append(svg('text', { x: (CLIENT_X + SERVER_X) / 2, y: y - 3, class: 'label', 'text-anchor': 'middle' }, `${r[2]} B ${label}`));
      const frames = (r[4] ? '#' + r[4] : '–') + ' / ' + (r[5] ? '#' + r[5] : '–');
      g.append(svg('text', { x: SERVER_X + 8, y: y + 4, class: 'frames' }, frames));
      g.append(svg('title', {}, packetDetail(r[7])));
      g.addEventListener('click', () => select(i, false));
      return g;
    }

    function draw() {
      const height = scroller.clientHeight || VIEW_H;
      const first = Math.max(0, Math.floor(scroller.scrollTop / ROW) - 10);
      const last = Math.min(rows.length, first + Math.ceil(height / ROW) + 20);
      image.replaceChildren();
      const defs = svg('defs');
      defs.append(arrowHead(uid + '-head', 'head'));
      image.append(defs);
      image.style.top = first * ROW + 'px';
      image.setAttribute('height', Math.max(1, (last - first) * ROW));
      for (const x of [CLIENT_X, SERVER_X])
        image.append(svg('line', { x1: x, y1: 0, x2: x, y2: (last - first) * ROW, class: 'lane' }));
      for (let i = first; i < last; ++i) image.append(drawRow(i, (i - first) * ROW + ROW / 2));
    }

    let pending = false;
    scroller.addEventListener('scroll', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    });

    function select(i, scroll) {
      selected = i;
      const r = rows[i];
      const fate = ['delivered', 'LOST: never received', 'one capture only', 'received, not in the sender\'s capture'][r[3]];
      detail.textContent = `${msText(r[0])} ${r[1] === 0 ? 'client → server' : 'server → client'} ${r[2]} B, ${fate}` +
        (r[6] !== null ? `, received at ${msText(r[6])}` : '') +
        `\nclient.pcap frame ${r[4] || '–'}, server.pcap frame ${r[5] || '–'}\n${packetDetail(r[7])}`;
      if (scroll) scroller.scrollTop = Math.max(0, i * ROW - (scroller.clientHeight || VIEW_H) / 3);
      draw();
    }

    // The row that holds `frame` of `capture`, or -1.
    function rowOf(capture, frame) {
      const column = capture === capNames.client ? 4 : capture === capNames.server ? 5 : -1;
      if (column < 0) return -1;
      return rows.findIndex((r) => r[column] === frame);
    }

    draw();
    return {
      root,
      showFrame(capture, frame) {
        const i = rowOf(capture, frame);
        if (i < 0) return false;
        root.closest('details.case').open = true;
        root.closest('details.run').open = true;
        select(i, true);
        root.scrollIntoView({ block: 'center' });
        return true;
      },
      hasFrame: (capture, frame) => rowOf(capture, frame) >= 0,
    };
  }

  // ---- plots -------------------------------------------------------------

  // Step series are drawn with Chart.js's stepped: 'before': a value holds
  // from its point until the next point's time, where the line jumps.
  const points = (series) => (series || []).map(([x, y]) => ({ x, y }));
  // A step series held to the end of the run, so a flat tail shows as flat.
  const heldTo = (series, end) => {
    const p = points(series);
    if (p.length && end > p[p.length - 1].x) p.push({ x: end, y: p[p.length - 1].y });
    return p;
  };

  function chart(container, config) {
    const canvas = el('canvas');
    container.append(el('div', { class: 'plot-area' }, canvas));
    config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false,
      parsing: false, normalized: true }, config.options);
    return new Chart(canvas, config);
  }

  const linearX = (title) => ({ type: 'linear', title: { display: true, text: title } });

  function streamsPlot(view, uid) {
    const s = view.streams;
    const series = { opened: s.opened, delivered: s.delivered, limit: s.limit, wanted: s.wanted };
    const box = el('div', { class: 'plot streams', id: uid + '-streams', 'data-initiator': s.initiator,
      'data-direction': s.direction, 'data-series': JSON.stringify(series) },
      el('h4', {}, `Streams (${s.initiator}-initiated, ${s.direction}): opened by the ${s.initiator} vs delivered to the peer, and the peer's limit`));
    const datasets = [
      { label: `opened (${s.initiator}'s capture)`, data: heldTo(s.opened, view.end_ms), stepped: 'before', borderColor: '#1f6fb2', pointRadius: 0 },
      { label: 'limit (initial_max_streams, MAX_STREAMS)', data: heldTo(s.limit, view.end_ms), stepped: 'before', borderColor: '#888', borderDash: [6, 4], pointRadius: 0 },
    ];
    if (s.delivered)
      datasets.splice(1, 0, { label: 'delivered (peer\'s capture)', data: heldTo(s.delivered, view.end_ms), stepped: 'before', borderColor: '#c0392b', pointRadius: 0 });
    // What the sender's application asked for, from its own qlog: above the
    // opened line when the stream limit held it back.
    if (s.wanted)
      datasets.unshift({ label: `wanted by the ${s.initiator}'s application (${s.initiator}.sqlog)`, data: heldTo(s.wanted, view.end_ms), stepped: 'before', borderColor: '#e67e22', borderDash: [2, 2], pointRadius: 0 });
    chart(box, { type: 'line', data: { datasets }, options: { scales: { x: linearX('ms'), y: { beginAtZero: true, title: { display: true, text: 'streams' } } } } });
    return box;
  }

  function handshakePlot(view, uid) {
    const h = view.handshake;
    const box = el('div', { class: 'plot handshake', id: uid + '-handshake', 'data-probes': h.probes.length },
      el('h4', {}, `Handshake progress and probes (${h.probes.length} resent CRYPTO or PING-only packets)`));
    const probe = (side) => h.probes.filter((p) => p.side === side).map((p) => ({ x: p.ms, y: p.stage }));
    chart(box, {
      type: 'line',
      data: { datasets: [
        { label: 'client stage', data: heldTo(h.client, view.end_ms), stepped: 'before', borderColor: '#1f6fb2', pointRadius: 0 },
        { label: 'server stage', data: heldTo(h.server, view.end_ms), stepped: 'before', borderColor: '#27ae60', pointRadius: 0 },
        { type: 'scatter', label: 'client probes', data: probe('client'), borderColor: '#1f6fb2', pointStyle: 'crossRot', pointRadius: 7 },
        { type: 'scatter', label: 'server probes', data: probe('server'), borderColor: '#27ae60', pointStyle: 'crossRot', pointRadius: 7 },
      ] },
      options: { scales: { x: linearX('ms'), y: { min: 0, max: 4.5, ticks: { stepSize: 1, callback: (v) => STAGES[v] || '' } } } },
    });
    return box;
  }

  // The endpoints' recovery state from their own qlog (RFC 9002): the
  // congestion window and bytes in flight (left axis), the PTO count (right).
  function recoveryPlot(view, uid) {
    const r = view.recovery;
    const box = el('div', { class: 'plot recovery', id: uid + '-recovery', 'data-series': JSON.stringify(r) },
      el('h4', {}, 'Recovery state (the endpoints\' own qlog): congestion window, bytes in flight, PTO count'));
    const colors = { client: '#1f6fb2', server: '#27ae60' };
    const datasets = [];
    for (const side of ['client', 'server']) {
      const m = r[side];
      if (!m) continue;
      if (m.congestion_window) datasets.push({ label: `${side} cwnd`, data: heldTo(m.congestion_window, view.end_ms), stepped: 'before', borderColor: colors[side], pointRadius: 0, yAxisID: 'y' });
      if (m.bytes_in_flight) datasets.push({ label: `${side} bytes in flight`, data: heldTo(m.bytes_in_flight, view.end_ms), stepped: 'before', borderColor: colors[side], borderDash: [4, 3], borderWidth: 1, pointRadius: 0, yAxisID: 'y' });
      if (m.pto_count) datasets.push({ label: `${side} PTO count`, data: heldTo(m.pto_count, view.end_ms), stepped: 'before', borderColor: '#c0392b', borderDash: side === 'client' ? [] : [2, 2], pointRadius: 0, yAxisID: 'y1' });
    }
    chart(box, { type: 'line', data: { datasets }, options: { scales: { x: linearX('ms'),
      y: { beginAtZero: true, position: 'left', title: { display: true, text: 'bytes' } },
      y1: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, ticks: { stepSize: 1 }, title: { display: true, text: 'PTO count' } } } } });
    return box;
  }

  function tcpPlots(view, uid) {
    const windows = el('div', { class: 'plot windows', id: uid + '-windows' },
      el('h4', {}, `Advertised receive window, ${view.flow}`));
    // Each side on its own axis: a window clamped to a few KB must not be
    // flattened against the other side's megabytes.
    chart(windows, { type: 'line', data: { datasets: [
      { label: 'initiator advertises (left axis)', data: points(view.windows.initiator), stepped: 'before', borderColor: '#1f6fb2', pointRadius: 0, yAxisID: 'y' },
      { label: 'responder advertises (right axis)', data: points(view.windows.responder), stepped: 'before', borderColor: '#c0392b', pointRadius: 0, yAxisID: 'y1' },
    ] }, options: { scales: { x: linearX('ms'),
      y: { beginAtZero: true, position: 'left', title: { display: true, text: 'initiator, bytes' } },
      y1: { beginAtZero: true, position: 'right', grid: { drawOnChartArea: false }, title: { display: true, text: 'responder, bytes' } } } } });
    const transfers = el('div', { class: 'plot transfers', id: uid + '-transfers', 'data-transfers': view.transfers.length },
      el('h4', {}, `Transfer times (${view.transfers.length} request/response transfers)`));
    chart(transfers, { type: 'bar', data: {
      labels: view.transfers.map((t) => '#' + t.index),
      datasets: [{ label: 'ms from first request byte to last response byte', data: view.transfers.map((t) => t.ms),
        backgroundColor: view.transfers.map((t) => (t.answered ? '#1f6fb2' : '#c0392b')) }],
    }, options: { parsing: true, normalized: false, scales: { y: { beginAtZero: true, title: { display: true, text: 'ms' } } } } });
    return [windows, transfers];
  }

  // ---- cases ---------------------------------------------------------------

  function evidenceItem(e, diagram) {
    const where = [];
    if (e.capture) where.push(e.capture);
    let frame = null;
    if (e.frame) {
      const label = 'frame ' + e.frame;
      frame = diagram && diagram.hasFrame(e.capture, e.frame)
        ? el('a', { href: '#', class: 'frame-link', 'data-capture': e.capture, 'data-frame': e.frame,
          onclick: (ev) => { ev.preventDefault(); diagram.showFrame(e.capture, e.frame); } }, label)
        : label;
    }
    const time = e.time_ns >= 0 ? ` at ${(e.time_ns / 1e9).toFixed(6)} s` : '';
    return el('li', { class: 'evidence' }, where.join(' '), where.length ? ' ' : '', frame, time, ': ', e.text);
  }

  // A mutant's own verdict, as the console says it: killed (on each seed),
  // SURVIVED (on which seeds), or NOT JUDGED (its run ended first). Its
  // run's status is no verdict on the mutant: a killed mutant's run FAILs.
  function mutantVerdict(m) {
    const seeds = m.seeds || [m.run.seed];
    const survivedOn = m.survived_seeds || [];
    const word = m.killed ? 'KILLED' : (m.survived || []).length ? 'SURVIVED' : 'NOT JUDGED';
    const on = seeds.length < 2 ? '' : m.killed ? ` on each of ${seeds.length} seeds`
      : ` on seed${survivedOn.length === 1 ? '' : 's'} ${survivedOn.join(', ')} of ${seeds.length}`;
    return {
      badge: el('span', { class: 'badge s-' + (m.killed ? 'pass' : cssName(word === 'SURVIVED' ? 'FAIL' : word)) }, word),
      label: `mutant ${m.label}: ${word.toLowerCase()}${on}, its run ${m.run.status} (must fail: ${m.fails.join(', ')})`,
    };
  }

  // Where each capture was taken (docs/offline.md, "Vantage"): a run's
  // own captures, or offline the capture the run's connection came from.
  function runVantages(run) {
    if ((run.captures || []).length)
      return ' · ' + run.captures.map((k) => `${k.file} at ${k.vantage}`).join(', ');
    const capture = offline() && captureOfFolder().get(run.artifact_dir);
    return capture ? ` · taken at ${capture.vantage}${capture.vantage_ambiguous ? ' (cannot tell)' : ''}` : '';
  }

  // Offline: each connection folder's capture, indexed once (a page may
  // hold thousands of runs).
  let folders = null;
  function captureOfFolder() {
    if (!folders) {
      folders = new Map();
      for (const k of DATA.report.offline.captures || [])
        for (const u of k.units || []) folders.set(u.folder, k);
    }
    return folders;
  }

  // Offline: each capture, its connections, where it was taken and why.
  function capturesTable(captures) {
    const table = el('table', { class: 'captures' },
      el('tr', {}, ['capture', 'connections', 'vantage', 'why'].map((h) => el('th', {}, h))));
    for (const k of captures)
      table.append(el('tr', {},
        el('td', {}, el('code', {}, k.file)),
        el('td', {}, (k.units || []).map((u) => u.label).join(', ')),
        el('td', {}, k.vantage + (k.vantage_ambiguous ? ' (cannot tell)' : '')),
        el('td', {}, k.vantage_from)));
    return table;
  }

  function runBlock(c, run, label, uid, verdictBadge) {
    const view = DATA.views[run.artifact_dir] || { kind: 'none', notes: ['no artifact folder'] };
    const body = el('div', { class: 'run-body' });
    const block = el('details', { class: 'run', id: uid, 'data-mutant': run.mutant || '', 'data-status': run.status,
      open: isFailure(run.status) || run.mutant ? true : null },
      el('summary', {}, verdictBadge || badge(run.status), ' ', label, offline() ? '' : ` · seed ${run.seed}`,
        ` · ${seconds(run.duration_s)}`, runVantages(run),
        el('span', { class: 'dir' }, ' ' + run.artifact_dir)), body);
    let drawn = false;
    const draw = () => {
      if (drawn) return;
      drawn = true;
      if (run.reason) body.append(el('p', { class: 'reason' }, run.reason));
      const diagram = view.kind === 'quic' ? SequenceDiagram(view, uid) : null;
      const checks = el('ul', { class: 'checks' });
      for (const ch of run.checks || [])
        checks.append(el('li', { class: cssName(ch.verdict) },
          el('b', {}, ch.verdict + (['PASS', 'FAIL'].includes(ch.verdict) ? ` [${ch.level}] ` : ' ')),
          el('code', {}, ch.check), ': ', ch.summary,
          el('ul', {}, (ch.evidence || []).map((e) => evidenceItem(e, diagram)))));
      body.append(checks);
      for (const n of view.notes || []) body.append(el('p', { class: 'note' }, n));
      const plots = el('div', { class: 'plots' });
      if (view.kind === 'quic') {
        if (view.streams) plots.append(streamsPlot(view, uid));
        if (view.handshake.probes.length || c.scenario === 'handshake') {
          plots.append(handshakePlot(view, uid));
          if (view.recovery) plots.append(recoveryPlot(view, uid));
        }
        body.append(plots, diagram.root);
      } else if (view.kind === 'tcp') {
        plots.append(...tcpPlots(view, uid));
        body.append(plots);
      }
    };
    return { block, draw };
  }

  function caseBlock(c, index, eager) {
    const uid = 'case-' + index;
    const runs = [];
    (c.runs || []).forEach((r, i) => runs.push(runBlock(c, r, 'run', `${uid}-run-${i}`)));
    (c.mutants || []).forEach((m, i) => {
      const verdict = mutantVerdict(m);
      runs.push(runBlock(c, m.run, verdict.label, `${uid}-mutant-${i}`, verdict.badge));
    });
    const killed = (c.mutants || []).filter((m) => m.killed).length;
    const block = el('details', { class: 'case', id: uid, 'data-status': c.status, 'data-id': c.id,
      open: isFailure(c.status) ? true : null },
      el('summary', {}, badge(c.status), ' ', el('b', {}, c.id), ` · ${c.section} · ${seconds(c.duration_s)}`,
        c.mutants && c.mutants.length ? ` · mutants killed ${killed}/${c.mutants.length}` : ''),
      el('p', {}, c.summary),
      c.requirement ? el('p', { class: 'requirement' }, 'Requirement: ', c.requirement) : null,
      c.headline ? el('p', { class: 'headline' }, c.headline) : null,
      c.replay ? el('p', {}, 'Replay: ', el('code', {}, c.replay)) : null,
      el('p', { class: 'params' }, offline()
        ? 'judged on a capture made elsewhere: no plugin ran, no scenario was played'
        : `plugin ${c.plugin} · scenario ${c.scenario} · params ${JSON.stringify(c.params || {})}`),
      runs.map((r) => r.block));
    const drawAll = () => runs.forEach((r) => r.draw());
    if (eager) drawAll();
    else block.addEventListener('toggle', drawAll);
    return block;
  }

  // ---- overview ------------------------------------------------------------

  function overview(cases) {
    const bySuite = new Map();
    cases.forEach((c, i) => {
      if (!bySuite.has(c.suite)) bySuite.set(c.suite, new Map());
      const sections = bySuite.get(c.suite);
      if (!sections.has(c.section)) sections.set(c.section, []);
      sections.get(c.section).push([c, i]);
    });
    const out = el('div', { class: 'overview' });
    for (const [suite, sections] of bySuite) {
      const table = el('table', {}, el('tr', {}, ['status', 'case', 'summary', 'duration', 'seeds passed', 'mutants killed'].map((h) => el('th', {}, h))));
      for (const [section, list] of sections) {
        // As the console counts a section: PASS and XFAIL only.
        const passed = list.filter(([c]) => c.status === 'PASS' || c.status === 'XFAIL').length;
        table.append(el('tr', { class: 'section-row' }, el('td', { colspan: 6 },
          `RFC ${section}: ${passed} of ${list.length} passed`)));
        for (const [c, i] of list) {
          const killed = (c.mutants || []).filter((m) => m.killed).length;
          table.append(el('tr', { class: 'case-row', 'data-status': c.status, 'data-id': c.id },
            el('td', {}, badge(c.status)),
            el('td', {}, el('a', { href: '#case-' + i, onclick: () => { document.getElementById('case-' + i).open = true; } }, c.id)),
            el('td', {}, c.headline || c.summary),
            el('td', { class: 'num' }, seconds(c.duration_s)),
            el('td', { class: 'num' }, `${c.runs_passed}/${(c.runs || []).length}`),
            el('td', { class: 'num' }, c.mutants && c.mutants.length ? `${killed}/${c.mutants.length}` : '–')));
        }
      }
      out.append(el('h3', {}, suite), table);
    }
    return out;
  }

  // ---- interop matrix ----------------------------------------------------

  // Pairs (client → server) × cases, as the console prints it; each cell is
  // the case's verdict, linked to the case block holding its evidence.
  function interopMatrix(interop, cases) {
    const index = new Map(cases.map((c, i) => [c.id, i]));
    const cells = new Map(interop.cells.map((cell) => [`${cell.client} → ${cell.server}\n${cell.case}`, cell]));
    const table = el('table', { class: 'interop' },
      el('tr', {}, el('th', {}, 'client → server'), interop.cases.map((c) => el('th', {}, c))));
    for (const pair of interop.pairs) {
      table.append(el('tr', {}, el('th', { class: 'pair' }, pair), interop.cases.map((c) => {
        const cell = cells.get(`${pair}\n${c}`);
        if (!cell) return el('td', { class: 'empty' }, '–');
        const i = index.get(cell.id);
        const open = () => { document.getElementById('case-' + i).open = true; };
        return el('td', { 'data-id': cell.id, title: cell.headline || null },
          i === undefined ? badge(cell.status) : el('a', { href: '#case-' + i, onclick: open }, badge(cell.status)));
      })));
    }
    return table;
  }

  // Stacks × behaviours: each cell the behaviour's verdict over every pair
  // the stack played in, linked to the case that decided it (the first that
  // failed, else the first), every judgement listed on hover.
  function behaviourMatrix(behaviours, cases) {
    const index = new Map(cases.map((c, i) => [c.id, i]));
    const cells = new Map(behaviours.cells.map((cell) => [`${cell.stack}\n${cell.behaviour}`, cell]));
    const table = el('table', { class: 'interop behaviours' },
      el('tr', {}, el('th', {}, 'stack'), behaviours.behaviours.map((b) => el('th', {}, b))));
    for (const stack of behaviours.stacks) {
      const versions = behaviours.versions || {};
      const name = Object.prototype.hasOwnProperty.call(versions, stack) ? versions[stack] : stack;
      table.append(el('tr', {}, el('th', { class: 'pair' }, name), behaviours.behaviours.map((b) => {
        const cell = cells.get(`${stack}\n${b}`);
        if (!cell) return el('td', { class: 'empty' }, '–');
        const decisive = cell.judgements.find((j) => j.verdict === cell.verdict) || cell.judgements[0];
        const i = index.get(decisive.id);
        const open = () => { document.getElementById('case-' + i).open = true; };
        const label = [badge(cell.verdict), cell.level ? ` [${cell.level}]` : '', cell.judged ? ` ${cell.passed}/${cell.judged}` : ''];
        return el('td', { 'data-stack': stack, 'data-behaviour': b, title: cell.judgements.map((j) => `${j.id}: ${j.verdict}`).join('\n') },
          i === undefined ? label : el('a', { href: '#case-' + i, onclick: open }, label));
      })));
    }
    return table;
  }

  function applyFilters() {
    const onlyFailures = document.getElementById('only-failures').checked;
    const text = document.getElementById('filter').value.trim().toLowerCase();
    for (const node of document.querySelectorAll('.case-row, details.case')) {
      const hide = (onlyFailures && !isFailure(node.dataset.status)) ||
        (text && !node.dataset.id.toLowerCase().includes(text));
      node.hidden = hide;
    }
  }

  function render() {
    const report = DATA.report;
    const t = report.totals;
    const app = document.getElementById('app');
    const runs = report.cases.reduce((n, c) => n + (c.runs || []).length + (c.mutants || []).length, 0);
    app.append(
      el('h1', {}, 'conform report'),
      el('p', { class: 'totals' }, `${t.passed} passed, ${t.failed} failed` +
        [['not_judged', 'not judged'], ['not_exercised', 'not exercised'], ['not_applicable', 'not applicable'],
          ['skipped', 'skipped'], ['interrupted', 'interrupted']]
          .map(([key, name]) => (t[key] ? `, ${t[key]} ${name}` : '')).join('') +
        ` · cases took ${seconds(t.duration_s)} in all` +
        (offline() ? ' · captures, no seed' : ` · seed ${report.seed}${report.seed_pinned ? ' (pinned)' : ''}`) +
        ` · conform ${report.conform_version}`),
      el('div', { class: 'controls' },
        el('label', {}, el('input', { type: 'checkbox', id: 'only-failures', onchange: applyFilters }), ' failures only'),
        el('input', { type: 'search', id: 'filter', placeholder: 'filter by case id', oninput: applyFilters })),
      ...(report.interop ? [el('h2', {}, 'Interop matrix'), interopMatrix(report.interop, report.cases)] : []),
      ...(report.interop && report.interop.behaviours.cells.length
        ? [el('h2', {}, 'Behaviours of each stack'), behaviourMatrix(report.interop.behaviours, report.cases)] : []),
      ...(offline() ? [el('h2', {}, 'Captures'), capturesTable(report.offline.captures || [])] : []),
      el('h2', {}, 'Overview'), overview(report.cases),
      el('h2', {}, 'Cases'),
      ...report.cases.map((c, i) => caseBlock(c, i, runs <= EAGER_RUNS)));
    // report.html#failures: a link that opens the page with the filter on.
    if (location.hash === '#failures') {
      document.getElementById('only-failures').checked = true;
      applyFilters();
    }
    // report.html#case-N: that case and its runs opened (the browser
    // scrolls to it, the fragment's element).
    const target = /^#case-\d+$/.test(location.hash) && document.getElementById(location.hash.slice(1));
    if (target) {
      target.open = true;
      for (const run of target.querySelectorAll('details.run')) run.open = true;
    }
  }

  let DATA;
  try {
    DATA = JSON.parse(document.getElementById('conform-data').textContent);
    ({ text: TEXT, label: LABEL } = DATA.strings);
    if (typeof Chart === 'undefined') throw new Error('Chart.js did not load');
    render();
    if (!problems.length) {
      statusEl.textContent = 'ok';
      statusEl.dataset.state = 'ok';
    }
  } catch (e) {
    fail(e && e.stack ? e.stack : String(e));
  }
})();
