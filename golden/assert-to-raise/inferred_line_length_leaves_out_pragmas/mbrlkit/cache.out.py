class RotatingCache:
    def get_input_metadata(self, seqlens):
        if self.kv_seqlens is None:
            self.init_kvseqlens(len(seqlens))
        if len(seqlens) != len(self.kv_seqlens):
            raise ValueError(
                f"Batch size is {len(self.kv_seqlens)}, got {len(seqlens)}, did you forget to reset the cache?"
            )
        return self.kv_seqlens.tolist()
