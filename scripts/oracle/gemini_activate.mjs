// Records a `gemini` activation vector's text from Gemini CLI 0.61.0's own ActivateSkillTool
// (packages/core/src/tools/activate-skill.ts, getFolderStructure, loadSkillFromFile), as the
// notes of activate/oracle-gemini-format-* describe. The bundle chunk holding them exports
// them under minified names only, so a copy of it with one more export line is imported:
//
//   B=$ORACLE_DIR/node_modules/@google/gemini-cli/bundle
//   cp $B/chunk-JDPZ4CE3.js $B/skilldeck-probe.js
//   echo 'export { ActivateSkillTool as __ActivateSkillTool, loadSkillFromFile as __loadSkillFromFile };' >> $B/skilldeck-probe.js
//   PROBE=$B/skilldeck-probe.js node scripts/oracle/gemini_activate.mjs TREE/.../SKILL.md
//
// It prints {"text": llmContent}; replace the tree's path by `<tree>` for the vector.
const m = await import(process.env.PROBE);
const file = process.argv[2];
const skill = await m.__loadSkillFromFile(file);
const config = {
  getSkillManager: () => ({ getSkill: () => skill, getSkills: () => [skill], activateSkill() {} }),
  getWorkspaceContext: () => ({ addDirectory() {} }),
};
const tool = new m.__ActivateSkillTool(config, undefined);
const inv = tool.build({ name: skill.name });
const out = await inv.execute({ abortSignal: new AbortController().signal });
process.stdout.write(JSON.stringify({ text: out.llmContent }));
process.exit(0);
