// The dashboard's views over finished runs: a run's outcome (its summary
// figures, and for a training run the job view: per rank, the time its
// compute and communication streams were busy, from trace.json), a plan's
// designs (the cost / effective GPU utilization chart with the Pareto front
// and the chosen design, as web/plan draws it, from plan.json), the form
// that starts a what-if beside an attached fabric, and two runs compared
// side by side (#/compare/A/B: summary figures, FCT CDFs from flows.csv,
// link utilization from links.csv, or observation.json for an attached
// fabric, per link for the busiest links, and each run's top findings from
// diagnosis.json).
(function () {
  'use strict';
  const Dash = window.Dash;

  const kColors = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
  const kComparedPorts = 24;    // ports in the per-port utilization chart
  const kComparedFindings = 5;  // findings of each run side by side

  // The summary's figures worth a row: [label, value, how to show it].
  const kFigures = [
    ['simulated time', (s) => s.sim_time_ns, Dash.FmtNs],
    ['events', (s) => s.events, Dash.Fmt],
    ['wall time (s)', (s) => s.wall_s, Dash.Fmt],
    ['flows', (s) => s.flows && s.flows.count, Dash.Fmt],
    ['FCT mean', (s) => s.flows && s.flows.fct_ns && s.flows.fct_ns.mean, Dash.FmtNs],
    ['FCT p50', (s) => s.flows && s.flows.fct_ns && s.flows.fct_ns.p50, Dash.FmtNs],
    ['FCT p99', (s) => s.flows && s.flows.fct_ns && s.flows.fct_ns.p99, Dash.FmtNs],
    ['FCT max', (s) => s.flows && s.flows.fct_ns && s.flows.fct_ns.max, Dash.FmtNs],
    ['slowdown p99', (s) => s.flows && s.flows.slowdown && s.flows.slowdown.p99, Dash.Fmt],
    ['max link util', (s) => s.links && s.links.max_util, Dash.FmtPercent],
    ['mean link util', (s) => s.links && s.links.mean_util, Dash.FmtPercent],
    ['drops', (s) => s.drops, Dash.Fmt],
    ['PFC pause', (s) => s.pfc_pause_ns, Dash.FmtNs],
    ['ECN marks', (s) => s.ecn_marks, Dash.Fmt],
    ['step time (s)', (s) => Array.isArray(s.training) && s.training[0] && s.training[0].step_time_s, Dash.Fmt],
    ['tokens/s', (s) => Array.isArray(s.training) && s.training[0] && s.training[0].tokens_per_s, Dash.Fmt],
    ['MFU', (s) => Array.isArray(s.training) && s.training[0] && s.training[0].mfu, Dash.FmtPercent],
    ['effective GPU util', (s) => Array.isArray(s.training) && s.training[0] && s.training[0].effective_gpu_utilization,
     Dash.FmtPercent],
  ];

  // A table of `summaries` (one column each) over the figures any of them has.
  function FiguresTable(parent, titles, summaries) {
    const table = Dash.El('table', 'summary');
    const head = Dash.El('tr');
    head.appendChild(Dash.El('th', '', ''));
    titles.forEach(function (t) { head.appendChild(Dash.El('th', '', t)); });
    table.appendChild(head);
    for (const [label, get, fmt] of kFigures) {
      const values = summaries.map(function (s) { return s ? get(s) : undefined; });
      if (!values.some(Dash.IsNumber)) continue;
      const tr = Dash.El('tr');
      tr.dataset.figure = label;
      tr.appendChild(Dash.El('th', '', label));
      values.forEach(function (v) { tr.appendChild(Dash.El('td', 'num', fmt(v))); });
      table.appendChild(tr);
    }
    parent.appendChild(table);
    return table;
  }

  // ---- a run's outcome ----
  Dash.views.Outcome = async function (parent, id, record) {
    const s = record.summary;
    if (!s || typeof s !== 'object') return;
    const section = Dash.Section(parent, 'Summary', 'summary');
    FiguresTable(section, [id], [s]);
    if (Array.isArray(s.training) && s.training.length > 0) await JobView(parent, id, s.training);
  };

  // Per rank, the busy time of its compute and communication streams
  // (trace.json: one process per rank, threads "compute",
  // "communication", "communication (2)", ...; X events, dur in µs).
  function RankTimes(trace) {
    const events = Array.isArray(trace) ? trace : (trace.traceEvents || []);
    const ranks = new Map();   // pid -> {name, compute_us, comm_us}
    const threads = new Map(); // pid:tid -> 'compute' | 'comm'
    for (const e of events) {
      if (e.ph !== 'M' || !e.args) continue;
      if (e.name === 'process_name' && /^rank \d+$/.test(e.args.name)) {
        ranks.set(e.pid, {name: e.args.name, rank: Number(e.args.name.slice(5)), compute_us: 0, comm_us: 0});
      } else if (e.name === 'thread_name') {
        const n = String(e.args.name);
        if (n === 'compute') threads.set(e.pid + ':' + e.tid, 'compute');
        else if (n.startsWith('communication')) threads.set(e.pid + ':' + e.tid, 'comm');
      }
    }
    for (const e of events) {
      if (e.ph !== 'X' || !Dash.IsNumber(e.dur)) continue;
      const r = ranks.get(e.pid), t = threads.get(e.pid + ':' + e.tid);
      if (!r || !t) continue;
      if (t === 'compute') r.compute_us += e.dur;
      else r.comm_us += e.dur;
    }
    return [...ranks.values()].sort(function (a, b) { return a.rank - b.rank; });
  }

  async function JobView(parent, id, training) {
    const section = Dash.Section(parent, 'Job', 'job');
    const t = training[0];
    const dims = Object.keys(t.comm_s || {}).filter(function (d) { return (t.comm_s[d] || 0) > 0; });
    const p = Dash.El('p', '', t.model + ' on ' + t.gpus + ' GPUs (TP ' + t.tp + ', PP ' + t.pp + ', DP ' + t.dp +
        '): step ' + Dash.Fmt(t.step_time_s) + ' s, compute ' + Dash.Fmt(t.compute_s) + ' s, exposed communication ' +
        dims.map(function (d) { return d + ' ' + Dash.Fmt(t.exposed_comm_s[d]) + ' s'; }).join(', ') + '.');
    section.appendChild(p);
    const trace = await Dash.GetJson(Dash.FilePath(id, 'trace.json'));
    const ranks = trace ? RankTimes(trace) : [];
    if (ranks.length === 0) {
      section.appendChild(Dash.El('p', 'note', 'The run\'s trace.json has no per-rank streams to show.'));
      return;
    }
    const chart = Dash.Chart(section, 'Per-rank time', 260);
    chart.setOption({
      animation: false, grid: {left: 60, right: 16, top: 30, bottom: 40}, legend: {top: 0},
      tooltip: {trigger: 'axis'},
      xAxis: {type: 'category', data: ranks.map(function (r) { return String(r.rank); }), name: 'rank',
              nameLocation: 'middle', nameGap: 26},
      yAxis: {type: 'value', name: 'busy (s)'},
      series: [
        {name: 'compute', type: 'bar', data: ranks.map(function (r) { return r.compute_us / 1e6; }),
         itemStyle: {color: kColors[0]}},
        {name: 'communication', type: 'bar', data: ranks.map(function (r) { return r.comm_us / 1e6; }),
         itemStyle: {color: kColors[1]}},
      ],
    });
    section.appendChild(Dash.El('p', 'note', 'Busy time of each rank\'s streams over the simulated step(s); ' +
        'communication overlaps compute where the schedule lets it, so the two need not add up to the step.'));
  }

  // ---- a plan ----
  Dash.views.Plan = async function (section, id, files) {
    const plan = await Dash.GetJson(Dash.FilePath(id, 'plan.json'));
    const designs = plan && Array.isArray(plan.designs) ? plan.designs : [];
    files.replaceChildren(Dash.El('span', '', 'Files: '));
    ['plan.html', 'plan.json', 'plan.csv'].forEach(function (n) {
      const a = Dash.El('a', '', n);
      a.href = Dash.FilePath(id, n);
      a.target = '_blank';
      a.rel = 'noopener';
      files.appendChild(a);
      files.appendChild(document.createTextNode(' '));
    });
    if (designs.length === 0) {
      section.appendChild(Dash.El('p', 'note', 'The plan built no design.'));
      return;
    }
    const point = function (d) { return [d.cost_usd, 100 * d.effective_gpu_utilization, String(d.name)]; };
    const kinds = [...new Set(designs.map(function (d) { return String(d.fabric_kind); }))].sort();
    const series = kinds.map(function (k, i) {
      return {name: k === 'ib' ? 'InfiniBand' : k === 'roce' ? 'RoCEv2' : k, type: 'scatter', symbolSize: 11,
              itemStyle: {color: kColors[i % kColors.length]},
              data: designs.filter(function (d) { return String(d.fabric_kind) === k; }).map(point)};
    });
    const front = designs.filter(function (d) { return d.pareto === true; }).map(point)
        .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (front.length > 0) {
      series.push({name: 'Pareto front', type: 'line', data: front, showSymbol: false,
                   lineStyle: {color: '#2ca02c', width: 2, type: 'dashed'}});
    }
    series.push({name: 'chosen (rank 1)', type: 'scatter', data: [point(designs[0])], symbolSize: 22,
                 itemStyle: {color: 'rgba(0,0,0,0)', borderColor: '#ff7f0e', borderWidth: 3}});
    const chart = Dash.Chart(section, 'Designs', 420);
    chart.setOption({
      animation: false, grid: {left: 90, top: 48, right: 40, bottom: 56}, legend: {top: 8},
      tooltip: {formatter: function (p) {
        return String(p.value[2]).replace(/[&<>]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;'}[c]; });
      }},
      xAxis: {type: 'value', scale: true, name: 'network cost (USD, capital)', nameLocation: 'middle', nameGap: 32},
      yAxis: {type: 'value', scale: true, name: 'effective GPU utilization (%)', nameLocation: 'middle', nameGap: 52},
      series: series,
    });
    section.appendChild(Dash.El('p', 'note', 'The chosen design: ' + designs[0].name + ' (' + designs.length +
        ' designs, ' + front.length + ' on the Pareto front). plan.html has the ranked table and bills of materials.'));
  };

  // ---- a what-if beside an attached fabric ----
  Dash.views.WhatIfForm = async function (parent, id) {
    const section = Dash.Section(parent, 'What-if', 'whatif');
    section.appendChild(Dash.El('p', 'legend', 'Simulate this fabric with a change and compare it with what the ' +
        'counters show. The scenario is the attachment\'s template unless one is pasted below; it must describe ' +
        'the same fabric.'));
    const form = Dash.El('form', 'whatif');
    form.id = 'whatif-form';
    const sets = Dash.El('textarea');
    sets.id = 'whatif-overrides';
    sets.rows = 2;
    sets.placeholder = 'fabric.mtu=1KiB';
    const l1 = Dash.El('label', '', 'Change (--set KEY=VALUE, one a line) ');
    l1.appendChild(sets);
    form.appendChild(l1);
    const text = Dash.El('textarea');
    text.id = 'whatif-scenario';
    text.rows = 6;
    text.spellcheck = false;
    const l2 = Dash.El('label', '', 'Scenario of the same fabric (empty: the attachment\'s template) ');
    l2.appendChild(text);
    form.appendChild(l2);
    const go = Dash.El('button', '', 'Start the what-if');
    go.type = 'submit';
    go.id = 'whatif-button';
    form.appendChild(go);
    const error = Dash.El('p', 'error');
    error.id = 'whatif-error';
    form.appendChild(error);
    section.appendChild(form);
    const earlier = Dash.El('p', 'files');
    section.appendChild(earlier);
    const answer = await Dash.GetJson('/api/runs?limit=200');
    const mine = answer ? answer.runs.filter(function (r) { return r.whatif_of === id; }) : [];
    if (mine.length > 0) {
      earlier.appendChild(Dash.El('span', '', 'What-ifs so far: '));
      mine.forEach(function (r) {
        const a = Dash.El('a', '', r.id + ' (' + r.status + ')');
        a.href = '#/compare/' + id + '/' + r.id;
        earlier.appendChild(a);
        earlier.appendChild(document.createTextNode(' '));
      });
    }
    form.addEventListener('submit', async function (ev) {
      ev.preventDefault();
      error.textContent = '';
      const query = new URLSearchParams();
      sets.value.split('\n').map(function (l) { return l.trim(); }).filter(Boolean).forEach(function (l) {
        query.append('set', l);
      });
      const body = text.value;
      const type = body.trim().startsWith('{') ? 'application/json' : 'application/yaml';
      go.disabled = true;
      try {
        const r = await Dash.Request('POST', Dash.RunPath(id) + '/whatif?' + query.toString(), body, type);
        if (r.status === 201 && r.json) window.location.hash = '#/compare/' + id + '/' + r.json.id;
        else error.textContent = (r.json && r.json.error) || ('the server answered ' + r.status);
      } finally {
        go.disabled = false;
      }
    });
  };

  // ---- two runs side by side ----
  // Per directed port "node>peer", a run's utilization: links.csv of a
  // finished flows run, observation.json (the last pass) of an attached
  // fabric; null when it has neither.
  async function PortUtilization(id, record) {
    const out = new Map();
    if (record.kind === 'observe') {
      const o = await Dash.GetJson(Dash.FilePath(id, 'observation.json'));
      if (!o || !Array.isArray(o.ports)) return null;
      o.ports.forEach(function (p) { out.set(p.node + '>' + p.port_peer, Number(p.utilization) || 0); });
      return out;
    }
    if (!(record.status === 'done' && record.summary && record.summary.links)) return null;
    const text = await Dash.GetText(Dash.FilePath(id, 'links.csv'));
    if (!text) return null;
    Dash.ParseCsv(text).forEach(function (r) { out.set(r.src + '>' + r.dst, Number(r.util) || 0); });
    return out;
  }

  function Cdf(values) {
    const v = values.filter(Dash.IsNumber).sort(function (a, b) { return a - b; });
    return v.map(function (x, i) { return [x, (i + 1) / v.length]; });
  }

  async function Picker(main) {
    const section = Dash.Section(main, 'Compare two runs', 'compare-pick');
    const answer = await Dash.GetJson('/api/runs?limit=200');
    const done = answer ? answer.runs.filter(function (r) { return r.status === 'done'; }) : [];
    if (done.length < 2) {
      section.appendChild(Dash.El('p', 'note', 'Two finished runs are needed; this server has ' + done.length + '.'));
      return;
    }
    const selects = [0, 1].map(function (k) {
      const s = Dash.El('select');
      done.forEach(function (r, i) {
        const o = Dash.El('option', '', r.id + ' (' + r.kind + ')');
        o.value = r.id;
        o.selected = i === k;
        s.appendChild(o);
      });
      section.appendChild(s);
      return s;
    });
    const go = Dash.El('button', '', 'Compare');
    go.addEventListener('click', function () {
      window.location.hash = '#/compare/' + selects[0].value + '/' + selects[1].value;
    });
    section.appendChild(go);
  }

  Dash.views.Compare = async function (main, a, b) {
    if (!a || !b) {
      await Picker(main);
      document.body.dataset.ready = 'true';
      return null;
    }
    const ids = [a, b];
    const records = await Promise.all(ids.map(function (id) { return Dash.GetJson(Dash.RunPath(id)); }));
    const missing = ids.filter(function (id, i) { return !records[i]; });
    if (missing.length > 0) {
      Dash.ShowError('There is no run ' + missing.join(' or ') + ' on this server.');
      document.body.dataset.ready = 'true';
      return null;
    }
    const titles = ids.map(function (id, i) {
      const r = records[i], s = r.summary;
      if (r.kind === 'observe') return 'observed ' + r.name + ' · ' + id;
      return (r.whatif_of ? 'what-if · ' : '') + (s && s.scenario ? s.scenario + ' · ' : '') + id;
    });
    const figures = Dash.Section(main, 'Summary', 'compare-summary');
    FiguresTable(figures, titles, records.map(function (r) { return r.summary; }));

    // Only a flows run writes flows.csv and links.csv (a 404 would be a console error).
    const has = function (i, key) { return records[i].summary && records[i].summary[key]; };
    const flows = await Promise.all(ids.map(function (id, i) {
      return has(i, 'flows') ? Dash.GetText(Dash.FilePath(id, 'flows.csv')) : null;
    }));
    const fct = Dash.Section(main, 'Flow completion times', 'compare-fct');
    if (flows.some(Boolean)) {
      const chart = Dash.Chart(fct, 'FCT CDF', 300);
      chart.setOption({
        animation: false, grid: {left: 60, right: 20, top: 30, bottom: 44}, legend: {top: 0}, tooltip: {trigger: 'axis'},
        xAxis: {type: 'log', name: 'FCT (µs)', nameLocation: 'middle', nameGap: 28},
        yAxis: {type: 'value', min: 0, max: 1, name: 'fraction of flows'},
        series: flows.map(function (text, i) {
          const rows = text ? Dash.ParseCsv(text) : [];
          return {name: titles[i], type: 'line', step: 'end', showSymbol: false, itemStyle: {color: kColors[i]},
                  data: Cdf(rows.map(function (r) { return Number(r.fct_ns) / 1e3; })).filter(function (p) { return p[0] > 0; })};
        }),
      });
    } else {
      fct.appendChild(Dash.El('p', 'note', 'Neither run wrote flows.csv.'));
    }

    const ports = await Promise.all(ids.map(function (id, i) { return PortUtilization(id, records[i]); }));
    const util = Dash.Section(main, 'Link utilization', 'compare-util');
    if (ports.some(Boolean)) {
      const chart = Dash.Chart(util, 'Utilization CDF', 300);
      chart.setOption({
        animation: false, grid: {left: 60, right: 20, top: 30, bottom: 44}, legend: {top: 0}, tooltip: {trigger: 'axis'},
        xAxis: {type: 'value', min: 0, name: 'utilization (%)', nameLocation: 'middle', nameGap: 28},
        yAxis: {type: 'value', min: 0, max: 1, name: 'fraction of ports'},
        series: ports.map(function (m, i) {
          return {name: titles[i], type: 'line', step: 'end', showSymbol: false, itemStyle: {color: kColors[i]},
                  data: m ? Cdf([...m.values()].map(function (u) { return 100 * u; })) : []};
        }),
      });
      // Per port, side by side: the busiest ports of either run.
      const busiest = new Map();
      ports.forEach(function (m) {
        if (m) m.forEach(function (u, k) { busiest.set(k, Math.max(busiest.get(k) || 0, u)); });
      });
      const names = [...busiest.entries()].sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); })
          .slice(0, kComparedPorts).map(function (e) { return e[0]; });
      const bars = Dash.Chart(util, 'Utilization per port', 320);
      bars.setOption({
        animation: false, grid: {left: 60, right: 20, top: 30, bottom: 90}, legend: {top: 0}, tooltip: {trigger: 'axis'},
        xAxis: {type: 'category', data: names.map(function (n) { return n.replace('>', ' → '); }),
                axisLabel: {rotate: 45, fontSize: 10}},
        yAxis: {type: 'value', min: 0, name: 'utilization (%)'},
        series: ports.map(function (m, i) {
          return {name: titles[i], type: 'bar', itemStyle: {color: kColors[i]},
                  data: names.map(function (n) { return m && m.has(n) ? 100 * m.get(n) : 0; })};
        }),
      });
      util.appendChild(Dash.El('p', 'note', 'The ' + names.length + ' busiest ports of either run; an attached ' +
          'fabric\'s utilization is over its last pass\'s window, a simulated run\'s over the run.'));
    } else {
      util.appendChild(Dash.El('p', 'note', 'Neither run has per-link utilization (links.csv or observation.json).'));
    }

    // The top findings of each, side by side.
    const top = Dash.Section(main, 'Top findings', 'compare-findings');
    const diagnoses = await Promise.all(ids.map(function (id, i) {
      const r = records[i];
      return r.kind === 'observe' || (r.status === 'done' && (r.kind === 'run' || r.kind === 'collective'))
          ? Dash.GetJson(Dash.FilePath(id, 'diagnosis.json')) : null;
    }));
    const table = Dash.El('table', 'summary');
    table.id = 'compare-findings-table';
    const head = Dash.El('tr');
    titles.forEach(function (t) { head.appendChild(Dash.El('th', '', t)); });
    table.appendChild(head);
    const lists = diagnoses.map(function (d) { return d && Array.isArray(d.findings) ? d.findings : []; });
    const rows = Math.min(kComparedFindings, Math.max(...lists.map(function (l) { return l.length; })));
    for (let k = 0; k < rows; k++) {
      const tr = Dash.El('tr');
      lists.forEach(function (l) {
        const f = l[k];
        const td = Dash.El('td', '', f ? f.kind + ' at ' + f.node + (f.port_peer ? ' → ' + f.port_peer : '') +
            ' · severity ' + Dash.Fmt(f.severity) : '');
        if (f) { td.dataset.node = f.node; td.dataset.peer = f.port_peer || ''; td.dataset.kind = f.kind; }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    }
    if (rows === 0) top.appendChild(Dash.El('p', 'note', 'Neither run has findings (yet).'));
    else top.appendChild(table);
    document.body.dataset.ready = 'true';
    return null;
  };
})();
