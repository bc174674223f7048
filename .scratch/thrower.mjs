export default { name: 'thrower', create() {
      let disclosures = 0;
      return {
        attach(session) { void session.connector.connect().then(() => { throw new Error('connected, then lost it'); }); },
        disclose() { disclosures += 1; if (disclosures === 2) throw new TypeError('disclose broke'); return { ok: false, code: 'INCOMPLETE_DISCOVERY' }; },
        call() { return Promise.reject(new Error('call broke')); },
        pushPolicy() {}, stop() {},
      };
    } };
