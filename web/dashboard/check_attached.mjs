// Browser check of an attached fabric on `aifabric serve`'s dashboard:
//   node check_attached.mjs AIFABRIC_BINARY
// Starts a stand-in Prometheus on a free loopback port (it answers the
// HTTP query API from fixed counters: three hosts h0..h2 on switch sw3,
// the port sw3 -> h0 at 0.95 of its 100 Gbps over the window, by hand:
// 2.375e8 B x 8 / (1e11 b/s x 0.02 s of the exporter's clock)), starts
// `aifabric serve --attach FILE` over a fresh store with that fabric and a
// what-if template of it, opens the dashboard in Debian's headless
// Chromium (playwright-core, web/report's copy), and fails unless:
//  - the runs list shows the attachment with its "live fabric" badge;
//  - its page draws the graph with the fabric's 3 links and highlights
//    the link of the top finding its diagnosis.json names (sw3 -> h0), and
//    its pass note reaches a second pass;
//  - the what-if form starts a run linked to it (whatif_of) and the compare
//    view shows both side by side: per-port utilization for both and the
//    observed fabric's top finding;
//  - the page logged no console error, threw nothing, and asked for
//    nothing but the server (every request is intercepted).
// Exits 0 on success, 1 on failure, 77 (ctest's skip) when there is no
// Chromium at /usr/bin/chromium.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BinaryAndChromium, ServeCheck, kTimeoutMs } from './serve_check.mjs';

const { binary, chromium } = BinaryAndChromium('check_attached.mjs');
const check = new ServeCheck('attached fabric', 3 * kTimeoutMs);
const problems = check.problems;

const kTopology = '4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n';
const kWhatIf = `name: whatif
seed: 1
fabric:
  kind: roce
  topology: {format: hpcc, file: topology.txt}
  switch: 32x100G
workload:
  - flows:
      - {src: 1, dst: 0, size: 1MiB}
      - {src: 2, dst: 0, size: 1MiB}
simulation: {until: 10ms}
`;

function Matrix(series) {
  return JSON.stringify({status: 'success', data: {resultType: 'matrix', result: series}});
}
// The counters over the default 30 s window (as src/server/attach_test.cc serves them).
const kAnswers = {
  'aifabric_sim_time_seconds[30s]': Matrix([{metric: {__name__: 'aifabric_sim_time_seconds'},
                                             values: [[100, '0.01'], [101, '0.02'], [102, '0.03']]}]),
  'aifabric_port_transmit_bytes_total[30s]': Matrix([
    {metric: {node: 'sw3', port: 'h0'}, values: [[100, '0'], [101, '1.1875e8'], [102, '2.375e8']]},
    {metric: {node: 'h1', port: 'sw3'}, values: [[100, '0'], [101, '5e7'], [102, '1e8']]}]),
};

// The stand-in Prometheus; resolves its URL.
function StartPrometheus() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const body = url.pathname === '/api/v1/query' ? (kAnswers[url.searchParams.get('query')] || Matrix([])) : null;
    res.writeHead(body ? 200 : 404, {'Content-Type': 'application/json'});
    res.end(body || '{}');
  });
  check.Defer(() => new Promise((r) => server.close(r)));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

function PairKey(a, b) { return a < b ? a + '|' + b : b + '|' + a; }

async function Check() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aifabric-attached-'));
  check.Defer(async () => fs.rmSync(dir, {recursive: true, force: true}));
  fs.writeFileSync(path.join(dir, 'topology.txt'), kTopology);
  fs.writeFileSync(path.join(dir, 'whatif.yaml'), kWhatIf);
  const prometheus = await StartPrometheus();
  fs.writeFileSync(path.join(dir, 'pod-a.yaml'),
                   `name: pod-a\nprometheus: ${prometheus}\ntopology: {format: hpcc, file: topology.txt}\n` +
                   `interval: 1s\ntimeout: 1s\nscenario: {file: whatif.yaml}\n`);
  const port = await check.StartServer(binary, ['--store', path.join(dir, 'store'), '--attach', path.join(dir, 'pod-a.yaml')]);
  const origin = `http://127.0.0.1:${port}`;
  const api = async (p) => (await fetch(origin + p)).json();

  await check.Launch(chromium);
  const page = await check.CheckedPage(origin);

  // The runs list: the attachment, badged.
  await page.goto(origin + '/', {waitUntil: 'load'});
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const row = await page.waitForSelector('tr[data-run-id] .badge.live-fabric');
  const id = await row.evaluate((e) => e.closest('tr').dataset.runId);
  const badge = await row.textContent();
  if (badge !== 'live fabric') problems.push(`the badge says "${badge}"`);

  // Its page: the graph, the top finding on its link, a second pass.
  await page.goto(`${origin}/#/run/${id}`);
  await page.waitForSelector('#topology');
  const state = () => page.evaluate(() => JSON.stringify({
    highlight: (document.getElementById('topology') || {dataset: {}}).dataset.highlight,
    note: (document.getElementById('pass-note') || {}).textContent,
    findings: document.querySelectorAll('#findings li').length}));
  await page.waitForFunction(() => {
    const t = document.getElementById('topology');
    const m = /^pass (\d+):/.exec(document.getElementById('pass-note').textContent);
    return t && t.dataset.highlight && m && Number(m[1]) >= 2;
  }).catch(async (e) => { throw new Error(`the run page never showed a second pass and a highlight: ${await state()}`); });
  const edges = await page.evaluate(() => {
    const chart = echarts.getInstanceByDom(document.getElementById('topology'));
    return chart ? chart.getOption().series[0].links.length : -1;
  });
  if (edges !== 3) problems.push(`the graph has ${edges} edges, the fabric 3 links`);
  const diagnosis = await api(`/api/runs/${id}/files/diagnosis.json`);
  const top = diagnosis.findings && diagnosis.findings[0];
  const expected = top ? PairKey(top.node, top.port_peer) : '';
  if (expected !== PairKey('sw3', 'h0')) problems.push(`diagnosis.json's top finding is on "${expected}", expected sw3 -> h0`);
  const highlighted = await page.evaluate(() => document.getElementById('topology').dataset.highlight);
  if (highlighted !== expected) problems.push(`the highlighted link is "${highlighted}", diagnosis.json's top "${expected}"`);
  const maxUtil = await page.evaluate(() => {
    const dl = document.getElementById('live-figures');
    const dt = [...dl.querySelectorAll('dt')].find((e) => e.textContent === 'max util');
    return dt ? dt.nextElementSibling.textContent : '';
  });
  if (maxUtil !== '95 %') problems.push(`the live max util reads "${maxUtil}", by hand 95 %`);

  // A what-if from the page, then the comparison.
  await page.fill('#whatif-overrides', 'fabric.mtu=1KiB');
  await page.click('#whatif-button');
  await page.waitForFunction((a) => new RegExp('^#/compare/' + a + '/[^/]+$').test(window.location.hash), id);
  const whatif = (await page.evaluate(() => window.location.hash)).split('/')[3];
  const record = await api(`/api/runs/${whatif}`);
  if (record.whatif_of !== id) problems.push(`the what-if's whatif_of is "${record.whatif_of}", expected ${id}`);
  // Wait for it to finish, then look at the comparison as it is then.
  for (let i = 0; i < 200 && (await api(`/api/runs/${whatif}`)).status !== 'done'; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const bars = await page.evaluate(() => {
    const div = document.querySelector('[data-chart-name="Utilization per port"]');
    const chart = div && echarts.getInstanceByDom(div);
    return chart ? chart.getOption().series.map((s) => s.data.length) : [];
  });
  if (bars.length !== 2 || bars.some((n) => n === 0)) problems.push(`the per-port chart has series ${JSON.stringify(bars)}`);
  const observedTop = await page.evaluate(() => {
    const td = document.querySelector('#compare-findings-table tr:nth-child(2) td:first-child');
    return td ? td.dataset.kind + ' ' + td.dataset.node + ' ' + td.dataset.peer : '';
  });
  if (observedTop !== `${top.kind} sw3 h0`) problems.push(`the compare view's observed top finding is "${observedTop}"`);
  await page.close();
  if (problems.length > 0) {
    console.log(`FAIL attached fabric: ${problems.join('; ')}`);
    return false;
  }
  console.log(`ok attached fabric: run ${id} badged, ${edges} edges, highlighted ${highlighted} (${top.kind}), ` +
              `max util ${maxUtil}, what-if ${whatif} linked and compared (per-port series ${bars}), ` +
              `${page.requests.length} requests all to ${origin}`);
  return true;
}

await check.Run(Check);
