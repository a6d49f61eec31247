// plan.html's page script: reads the plan from the JSON script element
// #plan-data (plan.json's contract, docs/plan.md; checked and capped by
// src/plan/plan_html.h) and builds the sections: the recommendation and the
// plan's header, the cost/utilization scatter chart, the ranked table, the
// bill of materials and the bottlenecks of the picked design (the chosen
// one, rank 1, until a row or a point is clicked) and the rejected designs.
// The chart is an ECharts instance on canvas, without animation. Text from
// the data only ever goes through textContent. When the chart has rendered,
// it sets document.body.dataset.ready = "true" (web/plan/check_plan.mjs
// waits for it).
(function () {
  'use strict';

  // Saturated colours only: the browser check tells a drawn point from the
  // grey axes by saturation.
  const kKindColors = {ib: '#1f77b4', roce: '#d62728'};
  const kOtherColors = ['#9467bd', '#8c564b', '#17becf', '#bcbd22'];
  const kParetoColor = '#2ca02c';
  const kChosenColor = '#ff7f0e';
  const kErrorBarColor = '#b22222';
  const kErrorBarCapPx = 6;
  // Plot area insets in CSS pixels (left, top, right, bottom): the legend
  // sits above `top`, axis labels outside the plot.
  const kGrid = {left: 90, top: 48, right: 40, bottom: 56};
  const kDimensionWords = {
    tensor: 'tensor-parallel', pipeline: 'pipeline-parallel', data: 'data-parallel', expert: 'expert-parallel',
    context: 'context-parallel', storage: 'storage', other: 'other',
  };

  const data = JSON.parse(document.getElementById('plan-data').textContent);
  const designs = Array.isArray(data.designs) ? data.designs : [];
  const main = document.getElementById('plan');
  main.textContent = '';
  let pendingCharts = 0;
  let allBuilt = false;
  let picked = 0;  // index into `designs` of the design whose details are shown

  function MarkReadyIfDone() {
    if (allBuilt && pendingCharts === 0) document.body.dataset.ready = 'true';
  }

  function Element(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function Section(title, id) {
    const s = Element('section');
    if (id) s.id = id;
    s.appendChild(Element('h2', '', title));
    main.appendChild(s);
    return s;
  }

  function Note(parent, text) {
    parent.appendChild(Element('p', 'note', text));
  }

  function IsNumber(v) {
    return typeof v === 'number' && Number.isFinite(v);
  }

  function Num(v, digits) {
    if (!IsNumber(v)) return '—';
    return v.toLocaleString('en-US', {maximumFractionDigits: digits, minimumFractionDigits: digits});
  }

  function Significant(v, digits) {
    if (!IsNumber(v)) return '—';
    return v.toLocaleString('en-US', {maximumSignificantDigits: digits});
  }

  function Usd(v) {
    return IsNumber(v) ? '$' + Num(v, 0) : '—';
  }

  // $4.72M, $850k: for the chart's axis and tooltip.
  function ShortUsd(v) {
    if (!IsNumber(v)) return '—';
    if (Math.abs(v) >= 1e9) return '$' + Num(v / 1e9, 2) + 'B';
    if (Math.abs(v) >= 1e6) return '$' + Num(v / 1e6, 2) + 'M';
    if (Math.abs(v) >= 1e3) return '$' + Num(v / 1e3, 1) + 'k';
    return '$' + Num(v, 0);
  }

  function Kw(w) {
    return IsNumber(w) ? Num(w / 1000, 1) + ' kW' : '—';
  }

  function Percent(u) {
    return IsNumber(u) ? Num(100 * u, 1) + ' %' : '—';
  }

  function Str(v) {
    return v === undefined || v === null ? '' : String(v);
  }

  function Workloads(d) {
    return Array.isArray(d.workloads) ? d.workloads : [];
  }

  function LimitsApplied() {
    if (!Array.isArray(data.limits_applied) || data.limits_applied.length === 0) return;
    const box = Element('div', 'limits');
    box.appendChild(Element('strong', '', 'Reduced to keep this file small:'));
    const list = Element('ul');
    for (const line of data.limits_applied) list.appendChild(Element('li', '', String(line)));
    box.appendChild(list);
    main.appendChild(box);
  }

  function Recommendation() {
    const s = Section('Recommendation');
    if (typeof data.recommendation !== 'string' || data.recommendation === '') {
      return Note(s, 'The plan holds no recommendation.');
    }
    const box = Element('div', 'recommendation', data.recommendation);
    box.id = 'recommendation';
    s.appendChild(box);
  }

  function Header() {
    const s = Section('The plan');
    const rows = [
      ['GPUs', IsNumber(data.gpus) ? Num(data.gpus, 0) : '—'],
      ['GPU model', Str(data.gpu) || '—'],
      ['cost-of-ownership horizon', IsNumber(data.years) ? Num(data.years, 0) + ' years' : '—'],
      ['energy price', IsNumber(data.energy_usd_per_kwh) ? '$' + Significant(data.energy_usd_per_kwh, 6) + ' per kWh' : '—'],
      ['PUE', IsNumber(data.pue) ? Significant(data.pue, 6) : '—'],
      ['designs built', Num(designs.length, 0)],
      ['designs rejected', Array.isArray(data.rejected) ? Num(data.rejected.length, 0) : '—'],
    ];
    const table = Element('table', 'header');
    table.id = 'plan-header';
    for (const [key, value] of rows) {
      const row = Element('tr');
      row.appendChild(Element('th', '', key));
      row.appendChild(Element('td', '', value));
      table.appendChild(row);
    }
    s.appendChild(table);
  }

  // The kinds in order of first appearance, ib and roce first.
  function Kinds() {
    const kinds = [];
    for (const k of ['ib', 'roce']) if (designs.some((d) => d.fabric_kind === k)) kinds.push(k);
    for (const d of designs) if (!kinds.includes(String(d.fabric_kind))) kinds.push(String(d.fabric_kind));
    return kinds;
  }

  function KindColor(kind, i) {
    return kKindColors[kind] || kOtherColors[i % kOtherColors.length];
  }

  function Point(d, i) {
    return {value: [d.cost_usd, 100 * d.effective_gpu_utilization], name: String(d.name), design: i};
  }

  function Tooltip(p) {
    const d = designs[p.data.design];
    if (d === undefined) return '';
    const lines = [String(d.name), 'network cost ' + ShortUsd(d.cost_usd) + ', power ' + Kw(d.power_w),
                   'effective GPU utilization ' + Percent(d.effective_gpu_utilization),
                   Significant(d.useful_gpu_hours_per_usd, 4) + ' useful GPU-hours per dollar'];
    // ECharts puts a formatter's string in as HTML: escape it.
    return lines.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')).join('<br>');
  }

  // A design's packet-check error bar on its utilization: error_bar is the
  // step time's relative difference between the flow and the packet level
  // (docs/plan.md, "Error bars"), and utilization goes as 1 / step time, so
  // the packet level puts it within u x (1 +- error_bar) to first order.
  function ErrorBars() {
    const bars = [];
    designs.forEach(function (d, i) {
      if (!IsNumber(d.error_bar) || d.error_bar <= 0) return;
      const u = 100 * d.effective_gpu_utilization;
      bars.push({value: [d.cost_usd, u * (1 - d.error_bar), u * (1 + d.error_bar)], name: String(d.name), design: i});
    });
    return bars;
  }

  // Draws one error bar: a vertical line between its ends, with caps.
  function DrawErrorBar(params, api) {
    const low = api.coord([api.value(0), api.value(1)]);
    const high = api.coord([api.value(0), api.value(2)]);
    const style = {stroke: kErrorBarColor, lineWidth: 2};
    const line = (x1, y1, x2, y2) => ({type: 'line', shape: {x1: x1, y1: y1, x2: x2, y2: y2}, style: style});
    return {type: 'group', children: [
      line(low[0], low[1], high[0], high[1]),
      line(low[0] - kErrorBarCapPx, low[1], low[0] + kErrorBarCapPx, low[1]),
      line(high[0] - kErrorBarCapPx, high[1], high[0] + kErrorBarCapPx, high[1]),
    ]};
  }

  function Scatter() {
    const s = Section('Network cost against effective GPU utilization');
    if (designs.length === 0) return Note(s, 'No design was built, so there is nothing to draw.');
    const kinds = Kinds();
    const series = kinds.map(function (kind, k) {
      const points = [];
      designs.forEach(function (d, i) { if (String(d.fabric_kind) === kind) points.push(Point(d, i)); });
      return {id: 'kind:' + kind, name: kind === 'ib' ? 'InfiniBand' : kind === 'roce' ? 'RoCEv2' : kind,
              type: 'scatter', symbolSize: 11, itemStyle: {color: KindColor(kind, k), opacity: 0.85}, data: points,
              z: 3};
    });
    const front = [];
    designs.forEach(function (d, i) { if (d.pareto === true) front.push(Point(d, i)); });
    front.sort(function (a, b) { return a.value[0] - b.value[0] || a.value[1] - b.value[1]; });
    if (front.length > 0) {
      series.push({id: 'pareto', name: 'Pareto front', type: 'line', data: front, showSymbol: false,
                   lineStyle: {color: kParetoColor, width: 2, type: 'dashed'}, itemStyle: {color: kParetoColor},
                   z: 2});
    }
    const bars = ErrorBars();
    if (bars.length > 0) {
      series.push({id: 'error-bars', name: 'packet-check error bar', type: 'custom', data: bars,
                   renderItem: DrawErrorBar, encode: {x: 0, y: [1, 2]}, itemStyle: {color: kErrorBarColor}, z: 3});
    }
    series.push({id: 'chosen', name: 'chosen (rank 1)', type: 'scatter', data: [Point(designs[0], 0)],
                 symbol: 'circle', symbolSize: 22,
                 itemStyle: {color: 'rgba(0,0,0,0)', borderColor: kChosenColor, borderWidth: 3}, z: 4});
    const div = Element('div', 'chart');
    div.id = 'scatter';
    div.style.height = '460px';
    div.dataset.chartName = 'Designs';
    div.dataset.plotInset = [kGrid.left, kGrid.top, kGrid.right, kGrid.bottom].join(',');
    s.appendChild(div);
    Note(s, 'One point per design; click a point (or a table row) to show its bill of materials and bottlenecks. ' +
            'A vertical bar on a point is its packet-level check: utilization within ± the error bar.');
    const chart = echarts.init(div, null, {renderer: 'canvas'});
    let finished = false;
    pendingCharts++;
    chart.on('finished', function () {
      if (finished) return;
      finished = true;
      pendingCharts--;
      MarkReadyIfDone();
    });
    chart.on('click', function (p) {
      if (p.data && typeof p.data.design === 'number') Pick(p.data.design);
    });
    chart.setOption({
      animation: false,
      grid: Object.assign({containLabel: false}, kGrid),
      legend: {top: 8, left: kGrid.left},
      tooltip: {trigger: 'item', formatter: Tooltip},
      xAxis: {type: 'value', scale: true, name: 'network cost (capital)', nameLocation: 'middle', nameGap: 32,
              axisLabel: {formatter: ShortUsd}},
      yAxis: {type: 'value', scale: true, name: 'effective GPU utilization (%)', nameLocation: 'middle', nameGap: 52},
      series: series,
    });
    window.addEventListener('resize', function () { chart.resize(); });
  }

  // The workloads by name, in order of first appearance, with their kind.
  function WorkloadColumns() {
    const columns = [];
    for (const d of designs) {
      for (const w of Workloads(d)) {
        const name = Str(w.name);
        if (!columns.some((c) => c.name === name)) columns.push({name: name, training: w.kind === 'training'});
      }
    }
    return columns;
  }

  function WorkloadOf(d, name) {
    return Workloads(d).find((w) => Str(w.name) === name);
  }

  // Each column: its heading, the cell's text, the value it sorts by, and
  // whether it is a number.
  function TableColumns() {
    const columns = [
      {title: 'rank', text: (d) => Str(d.rank) + (d.pareto === true ? ' *' : ''), key: (d) => d.rank, num: true},
      {title: 'design', text: (d) => Str(d.name), key: (d) => Str(d.name)},
      {title: 'kind', text: (d) => Str(d.fabric_kind), key: (d) => Str(d.fabric_kind)},
      {title: 'link', text: (d) => IsNumber(d.link_gbps) ? d.link_gbps + 'G' : '—', key: (d) => d.link_gbps, num: true},
      {title: 'topology', text: (d) => Str(d.topology), key: (d) => Str(d.topology)},
      {title: 'oversub.', text: (d) => IsNumber(d.oversubscription) ? Significant(d.oversubscription, 4) + ':1' : '—',
       key: (d) => d.oversubscription, num: true},
      {title: 'switch', text: (d) => Str(d.switch_model), key: (d) => Str(d.switch_model)},
      {title: 'switches', text: (d) => Num(d.switches, 0), key: (d) => d.switches, num: true},
      {title: 'cables', text: (d) => Num(d.cables, 0), key: (d) => d.cables, num: true},
      {title: 'network cost', text: (d) => Usd(d.cost_usd), key: (d) => d.cost_usd, num: true},
      {title: 'power', text: (d) => Kw(d.power_w), key: (d) => d.power_w, num: true},
      {title: 'network TCO', text: (d) => Usd(d.tco_usd), key: (d) => d.tco_usd, num: true},
      {title: 'eff. GPU util.', text: (d) => Percent(d.effective_gpu_utilization),
       key: (d) => d.effective_gpu_utilization, num: true},
      {title: 'GPU-h / $', text: (d) => Significant(d.useful_gpu_hours_per_usd, 4),
       key: (d) => d.useful_gpu_hours_per_usd, num: true},
      // |flow - packet| / packet on the design's scaled copy; the best few only.
      {title: 'error bar', text: (d) => IsNumber(d.error_bar) ? '±' + Percent(d.error_bar) : '—',
       key: (d) => IsNumber(d.error_bar) ? d.error_bar : -1, num: true},
    ];
    for (const c of WorkloadColumns()) {
      const field = c.training ? 'step_time_s' : 'goodput_per_s';
      const value = (d) => { const w = WorkloadOf(d, c.name); return w ? w[field] : undefined; };
      columns.push({title: c.name + (c.training ? ' step (s)' : ' goodput (/s)'),
                    text: (d) => Significant(value(d), 4), key: value, num: true});
    }
    return columns;
  }

  function Compare(a, b, num) {
    if (num) {
      const x = IsNumber(a) ? a : Infinity, y = IsNumber(b) ? b : Infinity;
      return x - y;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function RankedTable() {
    const s = Section('Designs, best first');
    if (designs.length === 0) return Note(s, 'No design was built.');
    Note(s, '* on the Pareto front of network cost and effective GPU utilization. Click a heading to sort, a row to ' +
            'show its bill of materials and bottlenecks.');
    const columns = TableColumns();
    const table = Element('table');
    table.id = 'designs';
    const thead = Element('thead');
    const head = Element('tr');
    const body = Element('tbody');
    const rows = designs.map(function (d, i) {
      const row = Element('tr', d.within_constraints === false ? 'over' : '');
      row.dataset.design = String(i);
      for (const c of columns) row.appendChild(Element('td', c.num ? 'num' : '', c.text(d)));
      if (d.within_constraints === false && d.constraint_missed) row.title = 'over constraints: ' + Str(d.constraint_missed);
      row.addEventListener('click', function () { Pick(i); });
      body.appendChild(row);
      return {row: row, design: d, index: i};
    });
    let sortedBy = -1, ascending = true;
    columns.forEach(function (c, k) {
      const th = Element('th', '', c.title);
      th.addEventListener('click', function () {
        ascending = sortedBy === k ? !ascending : true;
        sortedBy = k;
        for (const h of head.children) h.className = '';
        th.className = ascending ? 'sorted-up' : 'sorted-down';
        const order = rows.slice().sort(function (a, b) {
          const c0 = Compare(c.key(a.design), c.key(b.design), c.num);
          return (ascending ? c0 : -c0) || a.index - b.index;
        });
        for (const r of order) body.appendChild(r.row);
      });
      head.appendChild(th);
    });
    thead.appendChild(head);
    table.appendChild(thead);
    table.appendChild(body);
    s.appendChild(table);
  }

  function Heading(d, what) {
    return what + ': ' + Str(d.name) + ' (rank ' + Str(d.rank) + (picked === 0 ? ', the chosen design' : '') + ')';
  }

  function Bill(s, d) {
    s.appendChild(Element('h2', '', Heading(d, 'Bill of materials')));
    const lines = Array.isArray(d.bill_of_materials) ? d.bill_of_materials : [];
    if (lines.length === 0) return Note(s, 'This design has no bill of materials in the plan.');
    const table = Element('table');
    table.id = 'bill';
    const head = Element('tr');
    for (const h of ['category', 'part', 'where', 'count', 'unit price', 'unit power', 'price', 'power', 'price is']) {
      head.appendChild(Element('th', '', h));
    }
    const thead = Element('thead');
    thead.appendChild(head);
    table.appendChild(thead);
    const body = Element('tbody');
    let price = 0, power = 0, assumed = 0;
    for (const l of lines) {
      const row = Element('tr');
      row.appendChild(Element('td', '', Str(l.category)));
      row.appendChild(Element('td', '', Str(l.part)));
      row.appendChild(Element('td', '', Str(l.where)));
      row.appendChild(Element('td', 'num', Num(l.count, 0)));
      row.appendChild(Element('td', 'num', Usd(l.unit_price_usd)));
      row.appendChild(Element('td', 'num', IsNumber(l.unit_power_w) ? Significant(l.unit_power_w, 4) + ' W' : '—'));
      row.appendChild(Element('td', 'num', Usd(l.price_usd)));
      row.appendChild(Element('td', 'num', Kw(l.power_w)));
      row.appendChild(l.price_assumed === true ? Element('td', 'assumed', 'assumed (estimate)')
                                               : Element('td', '', 'published'));
      if (l.price_assumed === true) assumed++;
      if (IsNumber(l.price_usd)) price += l.price_usd;
      if (IsNumber(l.power_w)) power += l.power_w;
      body.appendChild(row);
    }
    table.appendChild(body);
    const foot = Element('tfoot');
    const total = Element('tr');
    total.appendChild(Element('th', '', 'total'));
    for (let i = 0; i < 5; i++) total.appendChild(Element('th'));
    total.appendChild(Element('th', 'num', Usd(price)));
    total.appendChild(Element('th', 'num', Kw(power)));
    total.appendChild(Element('th'));
    foot.appendChild(total);
    table.appendChild(foot);
    s.appendChild(table);
    if (assumed > 0) {
      Note(s, assumed + ' of ' + lines.length + ' lines carry an assumed price (an estimate, not a published list ' +
              'or street price): check them before buying, or give a price file (docs/catalog.md).');
    }
  }

  // "gpt3-175b: data-parallel communication, 0.49 s exposed per step".
  function BottleneckSentence(w) {
    const name = Str(w.name);
    if (w.kind !== 'training') {
      return name + ': inference service, goodput ' + Significant(w.goodput_per_s, 4) + ' per second ' +
             '(no step to break down)';
    }
    if (w.bottleneck === null || w.bottleneck === undefined || w.bottleneck === 'none') {
      return name + ': no communication exposed; the step is compute-bound';
    }
    const words = kDimensionWords[w.bottleneck] || String(w.bottleneck);
    const link = w.bottleneck_link ? '; busiest link ' + Str(w.bottleneck_link) + ' (' + Str(w.bottleneck_tier) +
                                         ', ' + Percent(w.bottleneck_link_busy) + ' busy over the step)' : '';
    return name + ': ' + words + ' communication, ' + Significant(w.exposed_comm_s, 3) + ' s exposed per step' +
           (IsNumber(w.step_time_s) ? ' (step ' + Significant(w.step_time_s, 4) + ' s)' : '') + link;
  }

  function Bottlenecks(s, d) {
    s.appendChild(Element('h2', '', Heading(d, 'Bottlenecks')));
    const workloads = Workloads(d);
    if (workloads.length === 0) return Note(s, 'This design has no workloads in the plan.');
    Note(s, 'Per workload, the parallelism dimension whose communication is most exposed (not hidden behind ' +
            'compute) in one step, and the fabric link busiest over the step.');
    const list = Element('ul');
    list.id = 'bottleneck-list';
    for (const w of workloads) list.appendChild(Element('li', '', BottleneckSentence(w)));
    s.appendChild(list);
  }

  let details = null;
  function Details() {
    if (designs.length === 0) return;
    details = Element('section');
    details.id = 'details';
    main.appendChild(details);
    ShowDetails();
  }

  function ShowDetails() {
    details.textContent = '';
    const d = designs[picked];
    Bill(details, d);
    Bottlenecks(details, d);
    const table = document.getElementById('designs');
    if (table) {
      for (const row of table.tBodies[0].rows) row.classList.toggle('picked', row.dataset.design === String(picked));
    }
  }

  function Pick(i) {
    if (i < 0 || i >= designs.length) return;
    picked = i;
    ShowDetails();
  }

  function Rejected() {
    const s = Section('Rejected designs');
    const rejected = Array.isArray(data.rejected) ? data.rejected : [];
    if (rejected.length === 0) return Note(s, 'No design was rejected.');
    const table = Element('table');
    table.id = 'rejected';
    const thead = Element('thead');
    const head = Element('tr');
    head.appendChild(Element('th', '', 'design'));
    head.appendChild(Element('th', '', 'why it was not built'));
    thead.appendChild(head);
    table.appendChild(thead);
    const body = Element('tbody');
    for (const r of rejected) {
      const row = Element('tr');
      row.appendChild(Element('td', '', Str(r.name)));
      row.appendChild(Element('td', '', Str(r.reason)));
      body.appendChild(row);
    }
    table.appendChild(body);
    s.appendChild(table);
  }

  if (typeof data.plan === 'string') document.getElementById('plan-title').textContent = 'plan ' + data.plan;
  LimitsApplied();
  Recommendation();
  Header();
  Scatter();
  RankedTable();
  Details();
  Rejected();
  allBuilt = true;
  MarkReadyIfDone();
})();
