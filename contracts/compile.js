// Compiles contracts/src with the pinned npm solc and writes contracts/artifacts.
// Run by `make contracts`; output is deterministic so the committed artifacts can be checked.
//
//   artifacts/<Name>.abi.json, <Name>.bin        contracts of src/*.sol
//   artifacts/test/<Name>.abi.json, <Name>.bin   test-only contracts of src/test/*.sol
//   artifacts/combined.json, test/combined.json  abigen --combined-json inputs
//   artifacts/SOURCES.sha256                     sha256 of every input (checked by go test)
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const solc = require('solc');

const root = __dirname;
const settings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  viaIR: true,
  metadata: { bytecodeHash: 'none', appendCBOR: false },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
};

function listSources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir + '/' + entry.name;
    if (entry.isDirectory()) out.push(...listSources(rel));
    else if (entry.name.endsWith('.sol')) out.push(rel);
  }
  return out.sort();
}

const files = listSources('src');
const sources = {};
for (const f of files) sources[f] = { content: fs.readFileSync(path.join(root, f), 'utf8') };

const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings })));
const errors = (output.errors || []).filter((e) => e.severity === 'error');
for (const e of output.errors || []) process.stderr.write(e.formattedMessage + '\n');
if (errors.length > 0) process.exit(1);

const artifacts = path.join(root, 'artifacts');
fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(path.join(artifacts, 'test'), { recursive: true });

const combined = { main: { contracts: {}, version: solc.version() }, test: { contracts: {}, version: solc.version() } };
for (const file of Object.keys(output.contracts).sort()) {
  const group = file.startsWith('src/test/') ? 'test' : 'main';
  const dir = group === 'test' ? path.join(artifacts, 'test') : artifacts;
  for (const name of Object.keys(output.contracts[file]).sort()) {
    const c = output.contracts[file][name];
    const bin = c.evm.bytecode.object;
    if (bin === '') continue; // interfaces and abstract contracts
    fs.writeFileSync(path.join(dir, name + '.abi.json'), JSON.stringify(c.abi, null, 2) + '\n');
    fs.writeFileSync(path.join(dir, name + '.bin'), bin + '\n');
    combined[group].contracts[file + ':' + name] = { abi: c.abi, bin: bin, 'bin-runtime': c.evm.deployedBytecode.object };
  }
}
fs.writeFileSync(path.join(artifacts, 'combined.json'), JSON.stringify(combined.main, null, 1) + '\n');
fs.writeFileSync(path.join(artifacts, 'test', 'combined.json'), JSON.stringify(combined.test, null, 1) + '\n');

// Every input that decides the output: sources, this script, the pinned package versions.
const inputs = [...files, 'compile.js', 'package.json', 'package-lock.json'];
let manifest = '# solc ' + solc.version() + '\n';
for (const f of inputs) {
  const sum = crypto.createHash('sha256').update(fs.readFileSync(path.join(root, f))).digest('hex');
  manifest += sum + '  ' + f + '\n';
}
fs.writeFileSync(path.join(artifacts, 'SOURCES.sha256'), manifest);
console.log('compiled ' + files.length + ' sources with solc ' + solc.version());
