class ScheduleTestMixin:
    def check_schedule(self, schedule, steps):
        assert len(schedule) == steps
