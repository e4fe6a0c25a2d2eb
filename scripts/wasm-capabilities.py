"""Writes an OPA capabilities file that allows only the built-ins a Wasm bundle can run on the JVM.

Usage: wasm-capabilities.py <opa module source dir> <opa binary> > scripts/wasm-capabilities.json
The native set is read from OPA's own Wasm compiler (internal/compiler/wasm/wasm.go), so it follows the pin.
"""
import json,re,sys,subprocess
M=sys.argv[1]; opa=sys.argv[2]
src=open(M+"/internal/compiler/wasm/wasm.go").read()
block=src[src.index("var builtinsFunctions = map[string]string{"):]
block=block[:block.index("\n}\n")]
idents=re.findall(r"ast\.(\w+)\.Name",block)
b=open(M+"/v1/ast/builtins.go").read()
names={}
for m in re.finditer(r"var (\w+) = &Builtin\{\s*Name:\s*\"([^\"]+)\"",b):
    names[m.group(1)]=m.group(2)
native={names[i] for i in idents if i in names}
missing=[i for i in idents if i not in names]
caps=json.loads(subprocess.check_output([opa,"capabilities","--current"]))
# "eq" (unification) and "assign" (rewritten to eq) are compiled by the planner itself.
planner={"eq","assign"}
# Supplied by com.styra.opa:opa-java-wasm itself (docs/design.md, "Two PDP engines").
sdk={"sprintf","json.is_valid"}
keep=native|planner|sdk
caps["builtins"]=[x for x in caps["builtins"] if x["name"] in keep]
print(json.dumps(caps,indent=1,sort_keys=True))
sys.stderr.write("native=%d missing=%s kept=%d\n"%(len(native),missing,len(caps["builtins"])))
