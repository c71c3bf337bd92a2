const models = {
  instant: "claude-instant-1.2",
  haiku: 'claude-3-haiku-20240307',
};
module.exports = models;
