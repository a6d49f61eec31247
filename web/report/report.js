// report.html's page script: reads the run's data from the JSON script
// element #report-data (schema in
// src/telemetry/html_report.h) and builds the sections: summary table,
// utilization heat maps, line charts, FCT CDF, a shared run's tenants and
// interference table, and the diagnosis table. Charts are
// ECharts instances on canvas, without animation; an empty or absent section
// gets a short note instead of a chart. Text from the data only ever goes
// through textContent. When every chart has rendered, it sets
// document.body.dataset.ready = "true" (web/report/check_report.mjs waits
// for it).
(function () {
  'use strict';

  // Saturated colours only: the browser check tells a drawn series from the
  // grey axes by saturation.
  const kPalette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#e377c2', '#17becf', '#bcbd22',
                    '#8c564b', '#393b79', '#e6550d', '#31a354', '#756bb1', '#de2d26', '#3182bd', '#c51b8a'];
  const kHeatColors = ['#313695', '#4575b4', '#74add1', '#fee090', '#f46d43', '#a50026'];
  // Plot area insets in CSS pixels (left, top, right, bottom): legends sit
  // above `top`, axis labels outside the plot.
  const kGrid = {left: 110, top: 40, right: 30, bottom: 50};
  const kHeatGrid = Object.assign({}, kGrid, {top: 8});  // its legend is HTML, above the chart
  const kMissing = 'not recorded in this run';

  const data = JSON.parse(document.getElementById('report-data').textContent);
  const main = document.getElementById('report');
  main.textContent = '';
  let pendingCharts = 0;
  let allBuilt = false;

  function MarkReadyIfDone() {
    if (allBuilt && pendingCharts === 0) document.body.dataset.ready = 'true';
  }

  function Element(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function Section(title) {
    const s = Element('section');
    s.appendChild(Element('h2', '', title));
    main.appendChild(s);
    return s;
  }

  function Note(parent, text) {
    parent.appendChild(Element('p', 'note', text));
  }

  function IsNonEmptyArray(a) {
    return Array.isArray(a) && a.length > 0;
  }

  function FormatValue(v) {
    if (typeof v === 'number') {
      return Number.isInteger(v) ? v.toLocaleString('en-US') : v.toLocaleString('en-US', {maximumSignificantDigits: 6});
    }
    if (v === null) return '—';
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }

  // The unit to show times in, for times up to `maxNs`.
  function TimeUnit(maxNs) {
    if (maxNs >= 1e10) return {name: 's', ns: 1e9};
    if (maxNs >= 1e7) return {name: 'ms', ns: 1e6};
    if (maxNs >= 1e4) return {name: 'µs', ns: 1e3};
    return {name: 'ns', ns: 1};
  }

  function Round(x) {
    return Number(x.toPrecision(6));
  }

  // Adds a chart named `name` (the browser check reports it by name) whose
  // plot area sits `grid` in from the chart's edges.
  function Chart(parent, name, heightPx, grid, option) {
    const div = Element('div', 'chart');
    div.style.height = heightPx + 'px';
    div.dataset.chartName = name;
    div.dataset.plotInset = [grid.left, grid.top, grid.right, grid.bottom].join(',');
    parent.appendChild(div);
    const chart = echarts.init(div, null, {renderer: 'canvas'});
    let finished = false;
    pendingCharts++;
    chart.on('finished', function () {
      if (finished) return;
      finished = true;
      pendingCharts--;
      MarkReadyIfDone();
    });
    option.animation = false;
    option.grid = Object.assign({containLabel: false}, grid);
    chart.setOption(option);
    window.addEventListener('resize', function () { chart.resize(); });
  }

  function LimitsApplied() {
    if (!IsNonEmptyArray(data.limits_applied)) return;
    const box = Element('div', 'limits');
    box.appendChild(Element('strong', '', 'Reduced to keep this file small:'));
    const list = Element('ul');
    for (const line of data.limits_applied) list.appendChild(Element('li', '', String(line)));
    box.appendChild(list);
    main.appendChild(box);
  }

  function Summary() {
    const s = Section('Summary');
    const entries = data.summary && typeof data.summary === 'object' ? Object.entries(data.summary) : [];
    if (entries.length === 0) return Note(s, 'No summary ' + kMissing + '.');
    const table = Element('table', 'summary');
    for (const [key, value] of entries) {
      const row = Element('tr');
      row.appendChild(Element('th', '', key));
      row.appendChild(Element('td', typeof value === 'number' ? 'num' : '', FormatValue(value)));
      table.appendChild(row);
    }
    s.appendChild(table);
  }

  function HeatLegend(parent) {
    const legend = Element('div', 'legend');
    legend.appendChild(Element('span', '', '0 %'));
    const ramp = Element('span', 'ramp');
    ramp.style.background = 'linear-gradient(to right, ' + kHeatColors.join(', ') + ')';
    legend.appendChild(ramp);
    legend.appendChild(Element('span', '', '100 % of line rate'));
    parent.appendChild(legend);
  }

  function Heatmaps() {
    const s = Section('Link utilization');
    if (!IsNonEmptyArray(data.heatmaps)) return Note(s, 'Utilization ' + kMissing + '.');
    for (const map of data.heatmaps) {
      const tier = String(map.tier === undefined ? '' : map.tier);
      s.appendChild(Element('h3', '', 'Tier ' + tier));
      const links = Array.isArray(map.links) ? map.links : [];
      const times = Array.isArray(map.times_ns) ? map.times_ns : [];
      if (links.length === 0 || times.length === 0) {
        Note(s, 'No link utilization ' + kMissing + ' for this tier.');
        continue;
      }
      const unit = TimeUnit(times[times.length - 1]);
      const cells = [];
      map.util.forEach(function (row, y) {
        row.forEach(function (u, x) { cells.push([x, y, u]); });
      });
      HeatLegend(s);
      const height = kHeatGrid.top + kHeatGrid.bottom + Math.min(Math.max(links.length * 14, 120), 900);
      Chart(s, 'Utilization: ' + tier, height, kHeatGrid, {
        tooltip: {
          position: 'top',
          formatter: function (p) {
            return links[p.value[1]] + ' at ' + Round(times[p.value[0]] / unit.ns) + ' ' + unit.name + ': ' +
                   (p.value[2] * 100).toFixed(1) + ' %';
          },
        },
        xAxis: {type: 'category', name: 'time (' + unit.name + ')', nameLocation: 'middle', nameGap: 28,
                data: times.map(function (t) { return String(Round(t / unit.ns)); })},
        yAxis: {type: 'category', data: links.map(String), inverse: true},
        visualMap: {show: false, min: 0, max: 1, inRange: {color: kHeatColors}},
        series: [{type: 'heatmap', data: cells, progressive: 0}],
      });
    }
  }

  function LineCharts() {
    if (!IsNonEmptyArray(data.series)) {
      const s = Section('Time series');
      return Note(s, 'Queue depth and throughput ' + kMissing + '.');
    }
    for (const chart of data.series) {
      const title = String(chart.title === undefined ? 'Untitled' : chart.title);
      const unitName = chart.unit === undefined ? '' : String(chart.unit);
      const s = Section(title + (unitName ? ' (' + unitName + ')' : '') + ' over time');
      const lines = Array.isArray(chart.lines) ? chart.lines.filter(function (l) { return IsNonEmptyArray(l.times_ns); })
                                               : [];
      if (lines.length === 0) {
        Note(s, title + ': ' + (chart.note ? String(chart.note) : kMissing) + '.');
        continue;
      }
      let maxNs = 0;
      for (const l of lines) maxNs = Math.max(maxNs, l.times_ns[l.times_ns.length - 1]);
      const unit = TimeUnit(maxNs);
      Chart(s, title, 360, kGrid, {
        color: kPalette,
        tooltip: {trigger: 'axis'},
        legend: {type: 'scroll', top: 4, left: kGrid.left + 60, right: kGrid.right},
        xAxis: {type: 'value', name: 'time (' + unit.name + ')', nameLocation: 'middle', nameGap: 28},
        yAxis: {type: 'value', name: unitName},
        series: lines.map(function (l) {
          return {
            name: String(l.name), type: 'line', showSymbol: false, lineStyle: {width: 2},
            data: l.times_ns.map(function (t, i) { return [t / unit.ns, l.values[i]]; }),
          };
        }),
      });
    }
  }

  function FctCdf() {
    const s = Section('Flow completion time CDF');
    const cdf = data.fct_cdf;
    if (!cdf || !IsNonEmptyArray(cdf.fct_ns)) return Note(s, 'Flow completion times ' + kMissing + '.');
    const points = [];
    cdf.fct_ns.forEach(function (f, i) { if (f > 0) points.push([f / 1e3, cdf.cdf[i]]); });
    Chart(s, 'FCT CDF', 360, kGrid, {
      color: kPalette,
      tooltip: {trigger: 'axis'},
      xAxis: {type: 'log', name: 'flow completion time (µs, log scale)', nameLocation: 'middle', nameGap: 28},
      yAxis: {type: 'value', name: 'fraction of flows', min: 0, max: 1},
      series: [{name: 'FCT', type: 'line', showSymbol: false, lineStyle: {width: 2}, data: points}],
    });
  }

  function Cell(row, text, className) {
    row.appendChild(Element('td', className || '', text));
  }

  // A share of a victim's slowdown, as the interference table shows it.
  function SharePercent(share) {
    return (Number(share) * 100).toFixed(1) + ' %';
  }

  // A shared run's workload items: headline figure shared and alone, and the
  // slowdown between them. Absent from a run of one workload.
  function Tenants() {
    if (!Array.isArray(data.tenants)) return;
    const s = Section('Tenants');
    if (data.tenants.length === 0) return Note(s, 'No tenants ' + kMissing + '.');
    const table = Element('table', 'findings');
    table.id = 'tenants';
    const head = Element('tr');
    for (const h of ['tenant', 'kind', 'headline', 'shared (ms)', 'alone (ms)', 'slowdown']) {
      head.appendChild(Element('th', '', h));
    }
    const thead = Element('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    const body = Element('tbody');
    for (const t of data.tenants) {
      const row = Element('tr');
      Cell(row, String(t.name));
      Cell(row, String(t.kind));
      Cell(row, String(t.headline));
      Cell(row, Number(t.shared_ms).toFixed(3), 'num');
      Cell(row, Number(t.alone_ms).toFixed(3), 'num');
      Cell(row, Number(t.slowdown).toFixed(3) + '×', 'num');
      body.appendChild(row);
    }
    table.appendChild(body);
    s.appendChild(table);
  }

  // Victim (rows) x aggressor (columns): the share of the victim's slowdown
  // due to the aggressor's traffic; empty where the two share no link.
  function Interference() {
    if (!Array.isArray(data.tenants)) return;
    const s = Section('Interference');
    const entries = Array.isArray(data.interference) ? data.interference : [];
    if (entries.length === 0) return Note(s, 'No tenant shares a link with another.');
    const names = data.tenants.map(function (t) { return String(t.name); });
    const share = new Map();
    for (const e of entries) share.set(String(e.victim) + '\u0000' + String(e.aggressor), e.share);
    const table = Element('table', 'findings');
    table.id = 'interference';
    const head = Element('tr');
    head.appendChild(Element('th', '', 'victim \\ aggressor'));
    for (const n of names) head.appendChild(Element('th', '', n));
    const thead = Element('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    const body = Element('tbody');
    for (const victim of names) {
      const row = Element('tr');
      row.appendChild(Element('th', '', victim));
      for (const aggressor of names) {
        const key = victim + '\u0000' + aggressor;
        Cell(row, share.has(key) ? SharePercent(share.get(key)) : '', 'num');
      }
      body.appendChild(row);
    }
    table.appendChild(body);
    s.appendChild(table);
  }

  function Diagnosis() {
    const s = Section('Diagnosis');
    const findings = data.diagnosis && Array.isArray(data.diagnosis.findings) ? data.diagnosis.findings : null;
    if (findings === null) return Note(s, 'Diagnosis ' + kMissing + '.');
    if (findings.length === 0) return Note(s, 'No findings: nothing in this run stood out.');
    // Most severe first; Array.prototype.sort is stable, so ties keep their order.
    const sorted = findings.slice().sort(function (a, b) { return b.severity - a.severity; });
    const table = Element('table', 'findings');
    table.id = 'findings';
    const head = Element('tr');
    for (const h of ['#', 'severity', 'kind', 'node', 'port peer', 'evidence', 'affected']) {
      head.appendChild(Element('th', '', h));
    }
    const thead = Element('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    const body = Element('tbody');
    sorted.forEach(function (f, i) {
      const row = Element('tr');
      Cell(row, String(i + 1), 'num');
      Cell(row, Number(f.severity).toFixed(2), 'severity');
      Cell(row, String(f.kind));
      Cell(row, String(f.node));
      Cell(row, f.port_peer === undefined || f.port_peer === null ? '' : String(f.port_peer));
      const evidence = f.evidence && typeof f.evidence === 'object'
                           ? Object.entries(f.evidence).map(function (e) { return e[0] + ': ' + FormatValue(e[1]); })
                           : [];
      Cell(row, evidence.join('; '), 'evidence');
      Cell(row, Array.isArray(f.affected) ? f.affected.map(FormatValue).join(', ') : '');
      body.appendChild(row);
    });
    table.appendChild(body);
    s.appendChild(table);
  }

  if (typeof data.title === 'string') document.getElementById('report-title').textContent = data.title;
  LimitsApplied();
  Summary();
  Heatmaps();
  LineCharts();
  FctCdf();
  Tenants();
  Interference();
  Diagnosis();
  allBuilt = true;
  MarkReadyIfDone();
})();
