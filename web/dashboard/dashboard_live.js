// The dashboard's view of one run (#/run/ID): its status and progress, the
// fabric drawn as a graph (GET /api/runs/ID/topology: a node per host and
// switch, an edge per cable) whose edges take the colour of their
// utilization from the live feed's snapshots (GET /api/runs/ID/events), the
// paused (PFC) links dashed, the top diagnosis finding drawn thick and black
// on its link; live charts of throughput, utilization, queueing delay,
// drops, PFC pause and ECN marks; the findings as they come, each selecting
// its link in the graph; and, once the run is over, its summary, the job
// view of a training run and the Pareto chart of a plan
// (dashboard_views.js). Cables in parallel between two nodes (a snapshot
// names a port by its two ends only) share the colour of the busiest.
// An attached real fabric (kind observe) is drawn the same way, pass by
// pass: each pass's findings replace the last's, its top finding is
// highlighted at once, its snapshot's counts are over the pass's window,
// and a form starts a what-if beside it (dashboard_views.js compares them).
(function () {
  'use strict';
  const Dash = window.Dash;

  // Draw at most this many edges (a bigger fabric gets a note instead).
  const kMaxDrawnLinks = 8000;
  const kTopColor = '#000000';
  const kSelectedColor = '#1565c0';
  const kPausedColor = '#8e24aa';

  function PairKey(a, b) { return a < b ? a + '|' + b : b + '|' + a; }

  function Escape(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }

  // Green (idle) -> yellow (half) -> red (full), as a CSS colour.
  const kIdle = [46, 160, 67], kHalf = [251, 192, 45], kFull = [211, 47, 47];
  function UtilColor(u) {
    const x = Math.max(0, Math.min(1, Dash.IsNumber(u) ? u : 0));
    const from = x < 0.5 ? kIdle : kHalf, to = x < 0.5 ? kHalf : kFull, t = x < 0.5 ? 2 * x : 2 * x - 1;
    const c = from.map(function (v, i) { return Math.round(v + (to[i] - v) * t); });
    return 'rgb(' + c.join(',') + ')';
  }

  // ---- the graph ----
  function TopologyGraph(parent, topology) {
    const div = Dash.El('div', 'graph');
    div.id = 'topology';
    parent.appendChild(div);
    const nodes = topology.nodes || [];
    const links = topology.links || [];
    const index = new Map();
    nodes.forEach(function (n, i) { index.set(n.name, i); });
    const byPair = new Map();  // PairKey -> [link index]
    links.forEach(function (l, i) {
      const k = PairKey(l.a, l.b);
      if (!byPair.has(k)) byPair.set(k, []);
      byPair.get(k).push(i);
    });
    const state = {div: div, chart: null, topology: topology, byPair: byPair, util: new Map(), paused: new Set(),
                   top: null, selected: null, drawn: links.length <= kMaxDrawnLinks};
    div.dataset.links = String(links.length);
    if (!state.drawn) {
      div.className = 'note';
      div.textContent = 'This fabric has ' + links.length + ' links, more than the ' + kMaxDrawnLinks +
          ' the page draws; the charts and findings below still follow the run.';
      return state;
    }
    // Rows by tier (hosts at the bottom), each row's nodes in id order.
    const tiers = new Map();
    nodes.forEach(function (n, i) {
      const t = n.kind === 'host' ? 0 : (n.tier > 0 ? n.tier : 1);
      if (!tiers.has(t)) tiers.set(t, []);
      tiers.get(t).push(i);
    });
    const top = Math.max(...tiers.keys());
    const data = new Array(nodes.length);
    for (const [t, members] of tiers) {
      members.forEach(function (i, k) {
        const n = nodes[i];
        data[i] = {name: n.name, x: (k + 0.5) / members.length * 1000, y: (top - t) * 300,
                   symbolSize: n.kind === 'host' ? 6 : 14,
                   itemStyle: {color: n.kind === 'host' ? '#607d8b' : '#37474f'}};
      });
    }
    state.nodes = data;
    state.chart = echarts.init(div, null, {renderer: 'canvas'});
    Dash.charts.push(state.chart);
    state.chart.setOption({
      animation: false,
      tooltip: {formatter: function (p) {
        if (p.dataType === 'edge') {
          const l = links[p.dataIndex];
          const u = state.util.get(PairKey(l.a, l.b));
          return Escape(l.a + ' – ' + l.b) + '<br>' + Escape(Dash.Fmt(l.rate_gbps) + ' Gbps') +
              (u === undefined ? '' : '<br>util ' + Escape(Dash.FmtPercent(u)));
        }
        return Escape(p.name);
      }},
      series: [{id: 'topology', type: 'graph', layout: 'none', roam: true, autoCurveness: true,
                data: data, links: Links(state), label: {show: false}, emphasis: {focus: 'adjacency'}}],
    });
    return state;
  }

  function Links(state) {
    return state.topology.links.map(function (l) {
      const k = PairKey(l.a, l.b);
      const style = {color: UtilColor(state.util.get(k)), width: 1.5, opacity: 0.9, type: 'solid'};
      if (state.paused.has(k)) { style.color = kPausedColor; style.type = 'dashed'; style.width = 2.5; }
      if (state.selected === k) { style.color = kSelectedColor; style.width = 5; }
      if (state.top === k) { style.color = kTopColor; style.width = 6; }
      return {source: l.a, target: l.b, lineStyle: style};
    });
  }

  function Redraw(state) {
    if (!state.chart) return;
    state.chart.setOption({series: [{id: 'topology', links: Links(state)}]});
    state.div.dataset.highlight = state.top || '';
    state.div.dataset.selected = state.selected || '';
    state.div.dataset.paused = String(state.paused.size);
  }

  // ---- the live charts ----
  const kSeries = [
    {name: 'Throughput', unit: 'Gbps', lines: ['sum over ports']},
    {name: 'Utilization', unit: '%', lines: ['max', 'mean']},
    {name: 'Latency', unit: 'µs', id: 'latency-chart',
     lines: ['max queue delay', 'mean queue delay of queued ports', 'flow completion p50', 'flow completion p99']},
    {name: 'Drops', unit: 'packets', lines: ['so far']},
    {name: 'PFC pause', unit: 'µs', lines: ['so far, all ports']},
    {name: 'ECN marks', unit: 'marks', lines: ['so far']},
  ];

  function LiveCharts(parent) {
    const grid = Dash.El('div', 'charts');
    parent.appendChild(grid);
    return kSeries.map(function (s) {
      const box = Dash.El('div', 'chart-box');
      if (s.id) box.id = s.id;
      box.appendChild(Dash.El('h3', '', s.name + ' (' + s.unit + ')'));
      grid.appendChild(box);
      const chart = Dash.Chart(box, s.name, 200);
      const data = s.lines.map(function () { return []; });
      chart.setOption({
        animation: false, grid: {left: 60, right: 16, top: 24, bottom: 40},
        legend: {top: 0, left: 60, textStyle: {fontSize: 11}},
        tooltip: {trigger: 'axis'},
        xAxis: {type: 'value', name: 'simulated µs', nameLocation: 'middle', nameGap: 26, scale: true},
        yAxis: {type: 'value', scale: false},
        series: s.lines.map(function (name, i) {
          return {name: name, type: 'line', showSymbol: false, data: data[i]};
        }),
      });
      return {chart: chart, data: data};
    });
  }

  // Figures of one snapshot: what the live panel and the charts show.
  function SnapshotFigures(snap, topology) {
    const rate = new Map();
    (topology ? topology.links : []).forEach(function (l) { rate.set(PairKey(l.a, l.b), l.rate_gbps); });
    const fl = snap.flow_latency || {count: 0};
    let gbps = 0, utilSum = 0, drops = 0, pfc = 0, ecn = 0, delayMax = 0, delaySum = 0, queued = 0;
    for (const p of snap.ports || []) {
      gbps += (p.util || 0) * (rate.get(PairKey(p.node, p.port)) || 0);
      utilSum += p.util || 0;
      drops += p.drops || 0;
      pfc += p.pfc_pause_ns || 0;
      ecn += p.ecn_marks || 0;
      if ((p.queue_bytes || 0) > 0) {
        queued++;
        delaySum += p.queue_delay_ns || 0;
        delayMax = Math.max(delayMax, p.queue_delay_ns || 0);
      }
    }
    return {t_us: (snap.sim_time_ns || 0) / 1e3, gbps: gbps, max_util: snap.max_util || 0,
            mean_util: snap.ports_total > 0 ? utilSum / snap.ports_total : 0,
            delay_max_us: delayMax / 1e3, delay_mean_us: queued > 0 ? delaySum / queued / 1e3 : 0,
            drops: drops, pfc_us: pfc / 1e3, ecn: ecn,
            // Flows completed since the snapshot before; null (no point
            // drawn) when none did.
            fct_p50_us: fl.count > 0 ? fl.p50_ns / 1e3 : null, fct_p99_us: fl.count > 0 ? fl.p99_ns / 1e3 : null};
  }

  function FiguresPanel(parent) {
    const dl = Dash.El('dl', 'figures');
    dl.id = 'live-figures';
    dl.dataset.updates = '0';
    parent.appendChild(dl);
    return dl;
  }

  function ShowFigures(dl, pairs) {
    const items = [];
    for (const [k, v] of pairs) {
      items.push(Dash.El('dt', '', k));
      items.push(Dash.El('dd', '', v));
    }
    dl.replaceChildren(...items);
  }

  // ---- findings ----
  function FindingText(f) {
    const e = f.evidence || {};
    const bits = [];
    if (Dash.IsNumber(e.utilization)) bits.push('util ' + Dash.FmtPercent(e.utilization));
    if (Dash.IsNumber(e.max_queue_bytes)) bits.push('max queue ' + Dash.Fmt(e.max_queue_bytes) + ' B');
    if (Dash.IsNumber(e.pause_time_ns) && e.pause_time_ns > 0) bits.push('paused ' + Dash.FmtNs(e.pause_time_ns));
    if (Dash.IsNumber(e.drop_packets) && e.drop_packets > 0) bits.push(Dash.Fmt(e.drop_packets) + ' drops');
    if (Dash.IsNumber(e.sources)) bits.push(e.sources + ' sources');
    return bits.join(', ');
  }

  // The index of the most severe finding (the first of equals), or -1.
  Dash.TopFinding = function (findings) {
    let best = -1;
    findings.forEach(function (f, i) {
      if (best < 0 || (f.severity || 0) > (findings[best].severity || 0)) best = i;
    });
    return best;
  };

  Dash.views.Run = async function (main, id) {
    const run = await Dash.GetJson(Dash.RunPath(id));
    if (!run) {
      Dash.ShowError('There is no run ' + id + ' on this server.');
      document.body.dataset.ready = 'true';
      return null;
    }
    let closed = false;
    let source = null;

    const head = Dash.Section(main, 'Run ' + id, 'run-head');
    const status = Dash.El('p', 'status ' + run.status);
    status.id = 'run-status';
    head.appendChild(status);
    const progress = Dash.El('progress');
    progress.max = 1;
    progress.value = run.progress || 0;
    head.appendChild(progress);
    const attached = run.kind === 'observe';
    const cancel = Dash.El('button', '', attached ? 'Detach the fabric' : 'Cancel the run');
    cancel.id = 'cancel-button';
    cancel.addEventListener('click', async function () {
      const r = await Dash.Request('DELETE', Dash.RunPath(id));
      if (r.status !== 202) Dash.ShowError((r.json && r.json.error) || 'cancel: the server answered ' + r.status);
    });
    head.appendChild(cancel);
    const files = Dash.El('p', 'files');
    head.appendChild(files);
    function SetStatus(s, error) {
      status.className = 'status ' + s;
      status.textContent = (attached ? 'live fabric ' + run.name : run.kind) + ' · ' + s + (error ? ': ' + error : '');
      status.dataset.status = s;
      cancel.hidden = s !== 'queued' && s !== 'running';
    }
    SetStatus(run.status, run.error);

    if (run.kind === 'plan') {
      const plan = Dash.Section(main, 'Designs', 'plan');
      const finish = async function () {
        const record = await Dash.GetJson(Dash.RunPath(id));
        if (record) SetStatus(record.status, record.error);
        if (record && record.status === 'done') await Dash.views.Plan(plan, id, files);
        document.body.dataset.runEnded = 'true';
      };
      source = Follow(id, {progress: function (p) { progress.value = p.progress || 0; }, end: finish});
      document.body.dataset.ready = 'true';
      return function () { closed = true; if (source) source.close(); };
    }

    if (attached) progress.hidden = true;
    const passNote = Dash.El('p', 'note');
    passNote.id = 'pass-note';
    head.appendChild(passNote);
    const figures = Dash.Section(main, 'Figures', 'figures-section');
    const panel = FiguresPanel(figures);
    const graphSection = Dash.Section(main, 'Fabric', 'graph-section');
    graphSection.appendChild(Dash.El('p', 'legend',
        'Edges: utilization green (idle) to red (full) · dashed purple: PFC-paused since the last snapshot · ' +
        'thick black: the top finding · blue: the finding picked below.'));
    const chartsSection = Dash.Section(main, 'Over time', 'live-charts');
    const charts = LiveCharts(chartsSection);
    const findingsSection = Dash.Section(main, 'Findings', 'findings-section');
    const list = Dash.El('ol', 'findings');
    list.id = 'findings';
    findingsSection.appendChild(list);
    const findings = [];
    const after = Dash.El('div');
    main.appendChild(after);

    // The topology: written when the run starts, so a queued run waits for it.
    let graph = null;
    let resolveGraph;
    const graphReady = new Promise(function (r) { resolveGraph = r; });
    // Asked for once the run has started: at its first event (the worker
    // writes it before the simulation starts), or at its end. Only a run or
    // a collective has one (a 404 would be a console error).
    let topologyAsked = false;
    function LoadTopology() {
      if (topologyAsked) return;
      topologyAsked = true;
      if (run.kind !== 'run' && run.kind !== 'collective' && run.kind !== 'observe') {
        graphSection.appendChild(Dash.El('p', 'note', 'A ' + run.kind + ' run has no single fabric to draw.'));
        resolveGraph(null);
        return;
      }
      Dash.Request('GET', Dash.RunPath(id) + '/topology').then(function (r) {
        if (closed) return;
        if (r.status === 200 && r.json) {
          graph = TopologyGraph(graphSection, r.json);
          // What came before the graph was drawn.
          if (lastSnapshot) ColorGraph(lastSnapshot);
          if (attached) MarkTop();
        } else {
          graphSection.appendChild(Dash.El('p', 'note', 'This run has no topology to draw.'));
        }
        resolveGraph(graph);
      });
    }

    let snapshots = 0;
    let lastPfc = new Map();  // "node>port" -> pfc_pause_ns at the last snapshot
    let latest = {progress: run.progress || 0, events: 0, transfers: 0};
    let lastSnapshot = null;
    // The graph's edges coloured by the snapshot's utilization, dashed where paused.
    function ColorGraph(snap) {
      const util2 = new Map(), pfcNow = new Map(), paused = new Set();
      for (const p of snap.ports || []) {
        const k = PairKey(p.node, p.port);
        util2.set(k, Math.max(util2.get(k) || 0, p.util || 0));
        const d = p.node + '>' + p.port;
        pfcNow.set(d, (pfcNow.get(d) || 0) + (p.pfc_pause_ns || 0));
      }
      // A simulated run's pause times are so far (paused: it grew since
      // the last snapshot); an observed pass's are over its window.
      const windowed = Dash.IsNumber(snap.window_s);
      for (const [d, v] of pfcNow) {
        if (v > (windowed ? 0 : (lastPfc.get(d) || 0))) paused.add(PairKey(...d.split('>')));
      }
      lastPfc = pfcNow;
      graph.util = util2;
      graph.paused = paused;
      Redraw(graph);
    }
    function OnSnapshot(snap) {
      LoadTopology();
      snapshots++;
      lastSnapshot = snap;
      const f = SnapshotFigures(snap, graph ? graph.topology : null);
      const rows = [f.gbps], util = [100 * f.max_util, 100 * f.mean_util];
      const values = [rows, util, [f.delay_max_us, f.delay_mean_us, f.fct_p50_us, f.fct_p99_us], [f.drops], [f.pfc_us], [f.ecn]];
      charts.forEach(function (c, i) {
        values[i].forEach(function (v, k) { if (v !== null) c.data[k].push([f.t_us, v]); });
        c.chart.setOption({series: c.data.map(function (d) { return {data: d}; })});
      });
      latest.transfers = snap.transfers_completed;
      if (graph) ColorGraph(snap);
      const clock = Dash.IsNumber(snap.pass) ? [['pass', Dash.Fmt(snap.pass)], ['window', Dash.Fmt(snap.window_s) + ' s']]
                                             : [['simulated', Dash.FmtNs(snap.sim_time_ns)], ['progress', Dash.FmtPercent(latest.progress)]];
      ShowFigures(panel, clock.concat([
                          ['transfers done', Dash.Fmt(snap.transfers_completed)],
                          ['max util', Dash.FmtPercent(f.max_util)], ['throughput', Dash.Fmt(f.gbps) + ' Gbps'],
                          ['max queue delay', Dash.Fmt(f.delay_max_us) + ' µs'], ['drops', Dash.Fmt(f.drops)],
                          ['PFC pause', Dash.Fmt(f.pfc_us) + ' µs'], ['ECN marks', Dash.Fmt(f.ecn)],
                          ['paused links', graph ? String(graph.paused.size) : '–']]));
      panel.dataset.updates = String(snapshots);
    }

    function Select(k) {
      if (!graph) return;
      graph.selected = k;
      Redraw(graph);
      graph.div.scrollIntoView({block: 'center'});
    }
    // The most severe finding so far drawn thick on its link at once (an
    // attached fabric's pass has no end to wait for).
    function MarkTop() {
      const best = Dash.TopFinding(findings);
      [...list.children].forEach(function (li, i) { li.classList.toggle('top', i === best); });
      if (best < 0 || !graph) return;
      const f = findings[best];
      graph.top = f.port_peer ? PairKey(f.node, f.port_peer) : null;
      graph.div.dataset.topFinding = f.kind + ' ' + f.node + ' ' + (f.port_peer || '');
      Redraw(graph);
    }
    // Live findings (a diagnosis of the run so far) until the final ones
    // come: the first final finding replaces them.
    let liveShown = false;
    function AddFinding(f) {
      if (f.live) {
        liveShown = true;
      } else if (liveShown) {
        liveShown = false;
        findings.length = 0;
        list.replaceChildren();
      }
      findings.push(f);
      const li = Dash.El('li', 'finding');
      li.dataset.node = f.node;
      li.dataset.peer = f.port_peer || '';
      li.appendChild(Dash.El('strong', '', f.kind));
      li.appendChild(Dash.El('span', '', ' at ' + f.node + (f.port_peer ? ' → ' + f.port_peer : '') +
                                          ' · severity ' + Dash.Fmt(f.severity) + ' · ' + FindingText(f)));
      li.tabIndex = 0;
      li.addEventListener('click', function () { Select(f.port_peer ? PairKey(f.node, f.port_peer) : null); });
      list.appendChild(li);
      if (attached || f.live) MarkTop();
    }
    // A new pass of an attached fabric: its findings replace the last's.
    let pass = 0;
    function OnPass(p) {
      if (p.error) {
        passNote.textContent = 'pass ' + p.pass + ' failed: ' + p.error;
        return;
      }
      pass = p.pass;
      passNote.textContent = 'pass ' + pass + ': ' + Dash.Fmt(p.series) + ' series read';
      findings.length = 0;
      list.replaceChildren();
    }

    async function OnEnd() {
      const record = await Dash.GetJson(Dash.RunPath(id));
      if (!record || closed) return;
      SetStatus(record.status, record.error);
      progress.value = record.progress;
      if (record.status === 'done') LoadTopology();
      else resolveGraph(graph);
      const g = await graphReady;
      if (record.status === 'done') {
        FileLinks(files, id, record);
        const diagnosis = await Dash.GetJson(Dash.FilePath(id, 'diagnosis.json'));
        if (liveShown && diagnosis && Array.isArray(diagnosis.findings)) {  // no final finding came
          liveShown = false;
          findings.length = 0;
          list.replaceChildren();
        }
        if (diagnosis && Array.isArray(diagnosis.findings) && findings.length === 0) diagnosis.findings.forEach(AddFinding);
        const all = diagnosis && Array.isArray(diagnosis.findings) ? diagnosis.findings : findings;
        const best = Dash.TopFinding(all);
        if (best >= 0) {
          const f = all[best];
          const li = [...list.children].find(function (e) { return e.dataset.node === f.node && e.dataset.peer === (f.port_peer || ''); });
          if (li) li.classList.add('top');
          if (g && f.port_peer) g.top = PairKey(f.node, f.port_peer);
        }
        if (list.children.length === 0) list.appendChild(Dash.El('li', 'note', 'The diagnosis found nothing to report.'));
        if (snapshots === 0) {
          ShowFigures(panel, Dash.Headline(record));
          chartsSection.querySelector('.charts').hidden = true;
          chartsSection.appendChild(Dash.El('p', 'note', 'The run had ended when this page opened, so there is ' +
              'no live series: its time series are in timeseries.csv and report.html.'));
          if (g && record.summary && record.summary.links) await FinalUtilization(g, id);
          if (g && attached) await FinalObservedUtilization(g, id);
        }
        if (g) Redraw(g);
        await Dash.views.Outcome(after, id, record);
      }
      document.body.dataset.runEnded = 'true';
    }

    if (attached) Dash.views.WhatIfForm(after, id);
    source = Follow(id, {
      progress: function (p) {
        LoadTopology();
        if (Dash.IsNumber(p.pass)) OnPass(p);
        latest.progress = p.progress || 0;
        progress.value = latest.progress;
        if (status.dataset.status === 'queued') SetStatus('running', '');
      },
      snapshot: OnSnapshot,
      finding: AddFinding,
      end: OnEnd,
    });
    document.body.dataset.ready = 'true';
    return function () {
      closed = true;
      if (source) source.close();
    };
  };

  // A finished run opened after its end: the edges coloured by links.csv's
  // utilization over the whole run, dashed where it says any pause.
  async function FinalUtilization(g, id) {
    g.div.dataset.utilization = 'links.csv';
    const text = await Dash.GetText(Dash.FilePath(id, 'links.csv'));
    if (!text) return;
    for (const row of Dash.ParseCsv(text)) {
      const k = PairKey(row.src, row.dst);
      g.util.set(k, Math.max(g.util.get(k) || 0, Number(row.util) || 0));
      if (Number(row.pfc_pause_ns) > 0) g.paused.add(k);
    }
  }

  // An attached fabric opened after it was detached: the edges coloured by
  // its last pass's utilization (observation.json), dashed where it paused.
  async function FinalObservedUtilization(g, id) {
    g.div.dataset.utilization = 'observation.json';
    const observation = await Dash.GetJson(Dash.FilePath(id, 'observation.json'));
    if (!observation || !Array.isArray(observation.ports)) return;
    for (const p of observation.ports) {
      const k = PairKey(p.node, p.port_peer);
      g.util.set(k, Math.max(g.util.get(k) || 0, Number(p.utilization) || 0));
      if (Number(p.pause_ns) > 0) g.paused.add(k);
    }
  }

  // Links to the run's files (a flows run has links.csv and flows.csv; an
  // attached fabric its last pass's diagnosis and observation).
  function FileLinks(p, id, record) {
    p.replaceChildren(Dash.El('span', '', 'Files: '));
    const summary = record.summary || {};
    const names = record.kind === 'observe'
        ? ['diagnosis.json', 'observation.json', 'topology.json', 'input/attach.yaml']
        : ['report.html', 'summary.json', 'diagnosis.json', 'timeseries.csv', 'trace.json', 'metrics.prom'];
    if (summary.links) names.push('links.csv');
    if (summary.flows) names.push('flows.csv');
    names.forEach(function (name) {
      const a = Dash.El('a', '', name);
      a.href = Dash.FilePath(id, name);
      a.target = '_blank';
      a.rel = 'noopener';
      p.appendChild(a);
      p.appendChild(document.createTextNode(' '));
    });
  }

  // Follows the run's event stream; `on` has a handler per event name.
  // Closed at the end (an EventSource would reconnect).
  function Follow(id, on) {
    const source = new EventSource(Dash.RunPath(id) + '/events');
    ['progress', 'snapshot', 'finding'].forEach(function (name) {
      source.addEventListener(name, function (ev) {
        if (on[name]) on[name](JSON.parse(ev.data));
      });
    });
    source.addEventListener('end', function () {
      source.close();
      if (on.end) on.end();
    });
    return source;
  }
  Dash.Follow = Follow;
})();
