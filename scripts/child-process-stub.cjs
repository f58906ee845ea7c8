// Stand-in for child_process inside the bundled commander (see scripts/bundle.mjs).
module.exports = {
  spawn() {
    throw new Error('executable subcommands are not used by mailctl');
  },
};
